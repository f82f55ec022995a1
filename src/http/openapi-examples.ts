// Examples for the OpenAPI description: the demo business's real answers, every list cut to its
// first element and long texts shortened. test/http/openapi.test.ts validates each against its schema.
// Regenerate by hand from a running demo when a shape changes (the test says which one no longer fits).

export const reviewsDatasetExample = {
  business: {
    id: 'summit-ridge',
    name: 'Summit Ridge Heating, Cooling & Plumbing',
    description:
      'Family-owned heating, cooling and plumbing company serving Larkspur Valley and the surrounding foothill towns since 2009. Licensed technicians for furnace ...',
    url: 'https://summitridgehome.example.com/',
    telephone: '+1-303-555-0142',
    email: 'service@summitridgehome.example.com',
    address: {
      street: '4180 Foothill Commerce Dr, Suite B',
      locality: 'Larkspur Valley',
      region: 'CO',
      postal_code: '80498',
      country: 'US',
    },
    geo: {
      latitude: 39.6217,
      longitude: -105.1093,
    },
    categories: ['HVAC contractor'],
    opening_hours: ['Mo-Fr 07:00-19:00'],
    services: [
      {
        id: 'ac-repair',
        name: 'AC Repair',
        description: 'Diagnosis and repair of central air conditioners: capacitors, refrigerant leaks, fan motors.',
        aliases: ['AC'],
      },
    ],
    technicians: [
      {
        id: 'mike-r',
        name: 'Michael Rodriguez',
        role: 'Lead HVAC Technician',
        aliases: ['Michael'],
      },
    ],
    service_areas: [
      {
        id: 'larkspur-valley',
        name: 'Larkspur Valley',
        aliases: [],
      },
    ],
    same_as: ['https://www.facebook.example.com/summitridgehome'],
    taxonomy: 'home-services',
  },
  aggregate_rating: {
    rating_value: 4.33,
    review_count: 590,
    best_rating: 5,
    worst_rating: 1,
    distribution: {
      '1': 47,
      '2': 23,
      '3': 30,
      '4': 78,
      '5': 412,
    },
  },
  reviews: [
    {
      id: 'rev-0600',
      date: '2026-10-30',
      rating: 5,
      title: null,
      text: 'Our furnace stopped working on a 10-degree night. Ask for Mike if you can. Left the place cleaner than it was before they came. The repair has held up ...',
      language: 'en',
      author: {
        name: 'Robert W.',
        location: null,
      },
      source: {
        platform: 'google',
        url: 'https://maps.google.example.com/reviews/bd7ee2',
      },
      verified: true,
      mentions: {
        technicians: [
          {
            id: 'mike-r',
            name: 'Michael Rodriguez',
          },
        ],
        services: [
          {
            id: 'furnace-repair',
            name: 'Furnace Repair',
          },
        ],
        service_areas: [],
      },
      response: null,
      updated_at: '2026-10-30T16:10:00Z',
    },
  ],
  updated_at: '2026-11-24T08:01:46.031Z',
  links: {
    self: 'http://127.0.0.1:18414/reviews.json',
    insights: 'http://127.0.0.1:18414/insights.json',
    feed_json: 'http://127.0.0.1:18414/api/feed.json',
    feed_xml: 'http://127.0.0.1:18414/feed.xml',
    search: 'http://127.0.0.1:18414/api/reviews/search',
    since: 'http://127.0.0.1:18414/api/reviews/since/{date}',
    openapi: 'http://127.0.0.1:18414/.well-known/openapi.json',
    mcp: 'http://127.0.0.1:18414/mcp',
    hub: 'http://127.0.0.1:18414/api/websub/hub',
  },
};

export const insightsExample = {
  generated_at: '2026-11-24T08:01:46.031Z',
  review_count: 590,
  method: {
    engine: 'review-data-insights',
    version: '2.0.0+home-services-absa.0212959978bc',
    taxonomy: 'home-services',
  },
  aspects: [
    {
      id: 'punctuality',
      label: 'Punctuality',
      mentions: 120,
      positive: 74,
      neutral: 13,
      negative: 33,
      score: 0.34,
      trend: {
        recent: {
          mentions: 18,
          positive: 10,
          neutral: 2,
          negative: 6,
          score: 0.22,
          from: '2026-05-04',
          to: '2026-10-30',
        },
        previous: {
          mentions: 102,
          positive: 64,
          neutral: 11,
          negative: 27,
          score: 0.36,
          from: '2022-11-02',
          to: '2026-05-03',
        },
      },
      highlights: [
        {
          review_id: 'rev-0293',
          quote: 'Darnell Washington showed up right at the start of the window.',
          polarity: 'positive',
        },
      ],
    },
  ],
  entities: {
    technicians: [
      {
        id: 'tom-k',
        name: 'Tomasz Kowalski',
        mentions: 67,
        average_rating: 4.12,
        sentiment: {
          positive: 52,
          neutral: 0,
          negative: 15,
          score: 0.55,
        },
        top_aspects: ['honesty'],
        review_ids: ['rev-0588'],
      },
    ],
    services: [
      {
        id: 'leak-detection',
        name: 'Leak Detection',
        mentions: 50,
        average_rating: 4.26,
        sentiment: {
          positive: 14,
          neutral: 0,
          negative: 36,
          score: -0.44,
        },
        top_aspects: ['price'],
        review_ids: ['rev-0582'],
      },
    ],
    service_areas: [
      {
        id: 'cedar-crest',
        name: 'Cedar Crest',
        mentions: 28,
        average_rating: 4.14,
        sentiment: {
          positive: 23,
          neutral: 0,
          negative: 5,
          score: 0.64,
        },
        top_aspects: ['punctuality'],
        review_ids: ['rev-0593'],
      },
    ],
    staff_candidates: [],
  },
  topics: [
    {
      phrase: 'water heater',
      mentions: 31,
      score: 0.09,
      review_ids: ['rev-0573'],
    },
  ],
  faq: [
    {
      question: 'Are they on time?',
      answer:
        'Usually, but not always: 74 of the 120 reviews that mention punctuality are positive and 33 negative. On the good side: "Darnell Washington showed up right ...',
      evidence: {
        review_count: 120,
        review_ids: ['rev-0597'],
      },
    },
  ],
  summary: {
    headline: 'Strong on communication, weaker on price',
    text: '590 published reviews between 2022-11-02 and 2026-10-30, with an average rating of 4.3 out of 5. Reviewers most often praise communication (163 of 205 ...',
    strengths: ['communication'],
    weaknesses: ['price'],
    period: {
      from: '2022-11-02',
      to: '2026-10-30',
    },
  },
};

export const jsonFeedExample = {
  version: 'https://jsonfeed.org/version/1.1',
  title: 'Summit Ridge Heating, Cooling & Plumbing reviews',
  home_page_url: 'https://summitridgehome.example.com/',
  feed_url: 'http://127.0.0.1:18414/api/feed.json',
  description: 'Verified customer reviews of Summit Ridge Heating, Cooling & Plumbing: 4.33 out of 5 from 590 reviews.',
  language: 'en',
  authors: [
    {
      name: 'Summit Ridge Heating, Cooling & Plumbing',
      url: 'https://summitridgehome.example.com/',
    },
  ],
  hubs: [
    {
      type: 'WebSub',
      url: 'http://127.0.0.1:18414/api/websub/hub',
    },
  ],
  items: [
    {
      id: 'rev-0600',
      url: 'http://127.0.0.1:18414/reviews/rev-0600',
      title: '★★★★★ 5/5 from Robert W.',
      content_text:
        'Our furnace stopped working on a 10-degree night. Ask for Mike if you can. Left the place cleaner than it was before they came. The repair has held up ...',
      content_html:
        '<p>Our furnace stopped working on a 10-degree night. Ask for Mike if you can. Left the place cleaner than it was before they came. The repair has held up ...',
      date_published: '2026-10-30T00:00:00Z',
      date_modified: '2026-10-30T16:10:00Z',
      authors: [
        {
          name: 'Robert W.',
        },
      ],
      tags: ['rating:5'],
      language: 'en',
      _review: {
        id: 'rev-0600',
        date: '2026-10-30',
        rating: 5,
        title: null,
        text: 'Our furnace stopped working on a 10-degree night. Ask for Mike if you can. Left the place cleaner than it was before they came. The repair has held up ...',
        language: 'en',
        author: {
          name: 'Robert W.',
          location: null,
        },
        source: {
          platform: 'google',
          url: 'https://maps.google.example.com/reviews/bd7ee2',
        },
        verified: true,
        mentions: {
          technicians: [
            {
              id: 'mike-r',
              name: 'Michael Rodriguez',
            },
          ],
          services: [
            {
              id: 'furnace-repair',
              name: 'Furnace Repair',
            },
          ],
          service_areas: [],
        },
        response: null,
        updated_at: '2026-10-30T16:10:00Z',
      },
    },
  ],
};

export const atomFeedExample =
  '<?xml version="1.0" encoding="UTF-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="en">\n  <id>http://127.0.0.1:18414/feed.xml</id>\n  <title type="text">Summit Ridge Heating, Cooling &amp; Plumbing reviews</title>\n  <subtitle type="text">Verified customer reviews of Summit Ridge Heating, Cooling &amp; Plumbing: 4.33 out of 5 from 590 reviews.</subtitle>\n  <updated>2026-11-24T08:01:46.031Z</updated>\n  <link rel="alternate" href="https://summitridgehome.example.com/"/>\n  <link rel="self" type="application/atom+xml" href="http://127.0.0.1:18414/feed.xml"/>\n  <link rel="hub" href="http://127.0.0.1:18414/api/websub/hub"/>\n  <author>\n    <name>Summit Ridge Heating, Cooling &amp; Plumbing</name>\n    <uri>https://summitridgehome.example.com/</uri>\n  </author>\n  <generator>Review Data Service</generator>\n  <entry>\n    <id>http://127.0.0.1:18414/api/reviews/rev-0600</id>\n    <title type="text">★★★★★ 5/5 from Robert W.</title>\n    <link rel="alternate" type="text/html" href="http://127.0.0.1:18414/reviews/rev-0600"/>\n    <link rel="alternate" type="application/json" href="http://127.0.0.1:18414/api/reviews/rev-0600"/>\n    <link rel="via" href="https://maps.google.example.com/reviews/bd7ee2"/>\n    <published>2026-10-30T00:00:00Z</published>\n    <updated>2026-10-30T16:10:00Z</updated>\n    <author>\n      <name>Robert W.</name>\n    </author>\n    <category term="rating:5"/>\n    <category term="Michael Rodriguez"/>\n    <category term="Furnace Repair"/>\n    <content type="html" xml:lang="en">&lt;p&gt;Our furnace stopped working on a 10-degree night. Ask for Mike if you can. Left the place cleaner than it was before they came. The repair has held up through a whole season. You can tell this company hires good people. They quoted $189 upfront and that is exactly what we paid. Very knowledgeable and clearly has years of experience.&lt;/p&gt;</content>\n  </entry>\n</feed>\n';

export const searchResultExample = {
  reviews: [
    {
      id: 'rev-0600',
      date: '2026-10-30',
      rating: 5,
      title: null,
      text: 'Our furnace stopped working on a 10-degree night. Ask for Mike if you can. Left the place cleaner than it was before they came. The repair has held up ...',
      language: 'en',
      author: {
        name: 'Robert W.',
        location: null,
      },
      source: {
        platform: 'google',
        url: 'https://maps.google.example.com/reviews/bd7ee2',
      },
      verified: true,
      mentions: {
        technicians: [
          {
            id: 'mike-r',
            name: 'Michael Rodriguez',
          },
        ],
        services: [
          {
            id: 'furnace-repair',
            name: 'Furnace Repair',
          },
        ],
        service_areas: [],
      },
      response: null,
      updated_at: '2026-10-30T16:10:00Z',
    },
  ],
  count: 1,
  total: 412,
  limit: 1,
  next_cursor: 'eyJ2IjoxLCJzIjoibmV3ZXN0IiwiZCI6IjIwMjYtMTAtMzAiLCJyIjo1LCJ1IjoiMjAyNi0xMC0zMFQxNjoxMDowMFoiLCJpIjoicmV2LTA2MDAifQ',
  filters: {
    rating: 5,
  },
};

export const sinceResultExample = {
  since: '2026-10-30',
  count: 1,
  total: 1,
  reviews: [
    {
      id: 'rev-0600',
      date: '2026-10-30',
      rating: 5,
      title: null,
      text: 'Our furnace stopped working on a 10-degree night. Ask for Mike if you can. Left the place cleaner than it was before they came. The repair has held up ...',
      language: 'en',
      author: {
        name: 'Robert W.',
        location: null,
      },
      source: {
        platform: 'google',
        url: 'https://maps.google.example.com/reviews/bd7ee2',
      },
      verified: true,
      mentions: {
        technicians: [
          {
            id: 'mike-r',
            name: 'Michael Rodriguez',
          },
        ],
        services: [
          {
            id: 'furnace-repair',
            name: 'Furnace Repair',
          },
        ],
        service_areas: [],
      },
      response: null,
      updated_at: '2026-10-30T16:10:00Z',
    },
  ],
};

export const reviewResultExample = {
  review: {
    id: 'rev-0600',
    date: '2026-10-30',
    rating: 5,
    title: null,
    text: 'Our furnace stopped working on a 10-degree night. Ask for Mike if you can. Left the place cleaner than it was before they came. The repair has held up ...',
    language: 'en',
    author: {
      name: 'Robert W.',
      location: null,
    },
    source: {
      platform: 'google',
      url: 'https://maps.google.example.com/reviews/bd7ee2',
    },
    verified: true,
    mentions: {
      technicians: [
        {
          id: 'mike-r',
          name: 'Michael Rodriguez',
        },
      ],
      services: [
        {
          id: 'furnace-repair',
          name: 'Furnace Repair',
        },
      ],
      service_areas: [],
    },
    response: null,
    updated_at: '2026-10-30T16:10:00Z',
  },
};

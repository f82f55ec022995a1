/**
 * The insights example of the OpenAPI description: /insights.json over the bundled demo, every list cut
 * to its first element. The one example kept as a value rather than computed with the description: the
 * insights engine takes seconds and loads its models, and runs only in the insights worker, never in the
 * process that answers requests. test/http/openapi-examples.test.ts computes it from the demo with the
 * engine and fails once the two differ (a new model, a new report); `UPDATE_OPENAPI_EXAMPLES=1 npx vitest
 * run test/http/openapi-examples.test.ts` writes the new value here.
 */
export const INSIGHTS_EXAMPLE = {
  generated_at: '2026-10-30T16:10:00Z',
  review_count: 590,
  method: {
    engine: 'review-data-insights',
    version: '2.0.0+home-services-absa.587ccc48464b',
    taxonomy: 'home-services',
  },
  aspects: [
    {
      id: 'punctuality',
      label: 'Punctuality',
      mentions: 116,
      positive: 86,
      neutral: 0,
      negative: 30,
      score: 0.48,
      trend: {
        recent: {
          mentions: 17,
          positive: 12,
          neutral: 0,
          negative: 5,
          score: 0.41,
          from: '2026-05-04',
          to: '2026-10-30',
        },
        previous: {
          mentions: 99,
          positive: 74,
          neutral: 0,
          negative: 25,
          score: 0.49,
          from: '2022-11-02',
          to: '2026-05-03',
        },
      },
      highlights: [
        {
          review_id: 'rev-0166',
          quote: 'Tom showed up right at the start of the window.',
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
          neutral: 1,
          negative: 14,
          score: 0.57,
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
          positive: 42,
          neutral: 0,
          negative: 8,
          score: 0.68,
        },
        top_aspects: [],
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
          positive: 24,
          neutral: 0,
          negative: 4,
          score: 0.71,
        },
        top_aspects: ['scheduling'],
        review_ids: ['rev-0593'],
      },
    ],
    staff_candidates: [
      {
        name: 'Morales',
        mentions: 3,
        review_ids: ['rev-0343'],
        evidence: ['Javier Morales was our technician and did a great job.'],
      },
    ],
  },
  topics: [
    {
      phrase: 'water heater',
      mentions: 31,
      score: 0.25,
      review_ids: ['rev-0573'],
    },
  ],
  faq: [
    {
      question: 'Are they on time?',
      answer:
        'Usually, but not always: 86 of the 116 reviews that mention punctuality are positive and 30 negative. On the good side: "Tom showed up right at the start of the window." On the other: "Javi showed up 2 hours late and nobody called to say so."',
      evidence: {
        review_count: 116,
        review_ids: ['rev-0597'],
      },
    },
  ],
  summary: {
    headline: 'Customers single out communication and scheduling',
    text: '590 published reviews between 2022-11-02 and 2026-10-30. Their average rating is 4.3 out of 5. Reviewers most often praise communication (159 of 201 positive), scheduling (153 of 165 positive) and quality of work (146 of 174 positive).',
    strengths: ['communication'],
    weaknesses: [],
    period: {
      from: '2022-11-02',
      to: '2026-10-30',
    },
  },
};

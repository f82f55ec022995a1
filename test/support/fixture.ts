import fs from 'node:fs/promises';
import path from 'node:path';
import { BusinessSchema, type Business } from '../../src/domain/business.js';
import type { DatasetState } from '../../src/domain/ports.js';
import type { StoredReview } from '../../src/domain/review.js';

/**
 * A small deterministic dataset for the HTTP and end-to-end tests: one business with a catalog that
 * exercises mention matching (aliases, "José", "Peñasco Heights"), 40 published reviews over 20 dates
 * (same-date pairs, some with equal `updated_at` so the id decides), every rating, owner responses and
 * awkward text (`&<>"'`, emoji, CR-LF, U+0001, empty), plus unpublished records that carry marker words
 * which must never appear in any response.
 */

/** Words that appear only in unpublished records (text, title, author, id). */
export const MARKERS = { unverified: 'quokkamarkerunverified', hidden: 'zebrafishmarkerhidden' } as const;
export const UNPUBLISHED_IDS = [`x-${MARKERS.unverified}`, `x-${MARKERS.hidden}`] as const;

export const PUBLISHED_COUNT = 40;
export const BUSINESS_UPDATED_AT = '2025-01-01T08:00:00Z';

export function fixtureBusiness(): Business {
  return BusinessSchema.parse({
    id: 'peak-plumbing',
    name: 'Peak Plumbing & Air',
    description: 'Plumbing, drains & AC in the foothills.',
    url: 'https://peak.example.com/',
    telephone: '+1-505-555-0100',
    email: 'hello@peak.example.com',
    address: { street: '1 Main St', locality: 'Peñasco', region: 'NM', postal_code: '87553', country: 'US' },
    geo: { latitude: 36.17, longitude: -105.68 },
    categories: ['Plumber', 'HVAC contractor'],
    opening_hours: ['Mo-Fr 08:00-18:00', 'Sa 09:00-13:00'],
    services: [
      { id: 'drain-cleaning', name: 'Drain Cleaning', description: 'Clogs and sewer lines.', aliases: ['drain', 'clog'] },
      { id: 'water-heater', name: 'Water Heater Installation', description: null, aliases: ['water heater'] },
      { id: 'ac-repair', name: 'AC Repair', description: null, aliases: ['air conditioner'] },
    ],
    technicians: [
      { id: 'mike-r', name: 'Mike Rodriguez', role: 'Lead plumber', aliases: ['Mike', 'Mikey'] },
      { id: 'jose-g', name: 'José García', role: 'HVAC technician', aliases: ['José'] },
      { id: 'ann-l', name: 'Ann Lee', role: null, aliases: [] },
    ],
    service_areas: [
      { id: 'penasco-heights', name: 'Peñasco Heights', aliases: [] },
      { id: 'old-town', name: 'Old Town', aliases: ['the old town'] },
    ],
    same_as: ['https://www.yelp.example/biz/peak-plumbing'],
  });
}

// Texts by review index; the others cycle through GENERIC. Each names catalog entries deliberately.
const SPECIAL_TEXT: Record<number, string> = {
  0: 'Mike fixed our drain in Peñasco Heights. Fast & clean <b>work</b>, "five stars", it\'s great 👍',
  1: '',
  2: 'José García replaced the water heater.\r\nSecond line after CR-LF.',
  3: 'Control \u0001 character and emoji 🚰🔥 in one review.',
  4: 'Mikey came out for the air conditioner in Old Town.',
  6: 'Joséphine at the front desk was kind; the technician was on time.',
  7: 'Tags & <script>alert("x")</script> should stay literal.',
};
const GENERIC = [
  'Prompt service and a fair price for the clog.',
  'The technician explained everything. Sparkling clean afterwards.',
  'Arrived late but did a solid job on the air conditioner.',
  'Would call again. Ann Lee was professional.',
  'Okay experience overall.',
];
const TITLES = [null, 'Great service', 'SPARKLING result', null, 'Late but fine', 'Meh'];
const PLATFORMS = ['google', 'yelp', 'facebook', 'website'];

function isoDay(offsetDays: number): string {
  return new Date(Date.UTC(2025, 0, 6) + offsetDays * 86_400_000).toISOString().slice(0, 10);
}

/** The published reviews, as stored (`updated_at` explicit, so every run gives the same bytes). */
function publishedReviews(count: number): StoredReview[] {
  return Array.from({ length: count }, (_, i) => {
    const pair = Math.floor(i / 2);
    const date = isoDay(pair * 7);
    // Same-date pairs: every third pair shares updated_at (the id decides), the others differ so that
    // the higher id is the newer one (updated_at decides, against id order).
    const hour = pair % 3 === 0 ? 12 : 12 + (i % 2);
    const id = `r${String(i + 1).padStart(2, '0')}`;
    const text = SPECIAL_TEXT[i] ?? GENERIC[i % GENERIC.length]!;
    return {
      id,
      date,
      rating: (i % 5) + 1,
      title: i === 1 ? null : (TITLES[i % TITLES.length] ?? null),
      text,
      language: i % 7 === 5 ? 'es' : i % 11 === 10 ? null : 'en',
      author: { name: i === 0 ? 'Zoë Ö.' : `Customer ${i + 1}`, location: i % 3 === 0 ? 'Taos, NM' : null },
      source: { platform: PLATFORMS[i % PLATFORMS.length]!, url: i % 4 === 0 ? `https://reviews.example/${id}` : null },
      verified: true,
      hidden: false,
      // Review 6 names nobody but is tagged with Ann Lee and the drain service by the importer.
      mention_tags:
        i === 5
          ? { technicians: ['ann-l'], services: ['drain-cleaning'], service_areas: [] }
          : { technicians: [], services: [], service_areas: [] },
      response:
        i % 4 === 2 ? { text: `Thanks, ${i % 8 === 2 ? 'we <3 you & "yours"' : 'see you soon'}!`, date: isoDay(pair * 7 + 1) } : null,
      updated_at: `${date}T${String(hour).padStart(2, '0')}:00:00Z`,
    };
  });
}

function unpublishedReviews(): StoredReview[] {
  const base = {
    rating: 1,
    language: 'en',
    source: { platform: 'google', url: null },
    response: null,
    // Named catalog entries, so a leak through mention search or insights would show.
    mention_tags: { technicians: ['mike-r'], services: ['ac-repair'], service_areas: [] },
  };
  return [
    {
      ...base,
      id: UNPUBLISHED_IDS[0],
      // The newest date of all: a leak would put it first everywhere.
      date: '2026-06-01',
      title: `Title ${MARKERS.unverified}`,
      text: `Mike was rude ${MARKERS.unverified}, sparkling clean though.`,
      author: { name: `Author ${MARKERS.unverified}`, location: null },
      verified: false,
      hidden: false,
      updated_at: '2026-06-01T09:00:00Z',
    },
    {
      ...base,
      id: UNPUBLISHED_IDS[1],
      date: '2025-03-03',
      rating: 5,
      title: null,
      text: `José drain ${MARKERS.hidden} in Old Town.`,
      author: { name: `Author ${MARKERS.hidden}`, location: MARKERS.hidden },
      verified: true,
      hidden: true,
      updated_at: '2026-06-02T09:00:00Z',
    },
  ];
}

export interface FixtureOptions {
  /** Published reviews to generate (default 40). */
  count?: number;
  /** Changes applied to individual published reviews by id, e.g. to make a second, different dataset. */
  patch?: Record<string, Partial<StoredReview>>;
}

export function fixtureReviews(options: FixtureOptions = {}): StoredReview[] {
  const published = publishedReviews(options.count ?? PUBLISHED_COUNT).map((r) => ({ ...r, ...options.patch?.[r.id] }));
  return [...published, ...unpublishedReviews()];
}

/** (a) The store's view of the fixture, ready for `buildSnapshot`. */
export function fixtureState(options: FixtureOptions = {}): DatasetState {
  return { business: fixtureBusiness(), businessUpdatedAt: BUSINESS_UPDATED_AT, reviews: fixtureReviews(options), version: 1 };
}

/** One review as an import file gives it (contract §3): flags plus `mentions` as catalog ids. */
export function toImportRecord(r: StoredReview): Record<string, unknown> {
  const { mention_tags, ...rest } = r;
  const mentions = Object.fromEntries(Object.entries(mention_tags).filter(([, ids]) => ids.length > 0));
  return { ...rest, ...(Object.keys(mentions).length > 0 ? { mentions } : {}) };
}

export function fixtureImportDocument(options: FixtureOptions = {}): { business: Business; reviews: Record<string, unknown>[] } {
  return { business: fixtureBusiness(), reviews: fixtureReviews(options).map(toImportRecord) };
}

/** (b) Writes the fixture as an import file: a dataset document (`.json`) or JSON Lines (`.jsonl`, reviews only). */
export async function writeFixtureImportFile(file: string, options: FixtureOptions = {}): Promise<string> {
  const doc = fixtureImportDocument(options);
  await fs.mkdir(path.dirname(file), { recursive: true });
  const body = file.endsWith('.jsonl') ? doc.reviews.map((r) => JSON.stringify(r)).join('\n') + '\n' : JSON.stringify(doc, null, 2);
  await fs.writeFile(file, body);
  return file;
}

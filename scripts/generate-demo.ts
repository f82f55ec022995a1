/**
 * Generates the bundled demo business (examples/demo/dataset.json), the dataset `npm start` loads into
 * an empty database. Deterministic: one seeded PRNG, no clock, so the committed file can be checked
 * against this script byte for byte (generate-demo.test.ts).
 *
 *   npx tsx scripts/generate-demo.ts
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { z } from 'zod';
import type { Business } from '../src/domain/business.js';
import type { ImportReviewSchema } from '../src/domain/import-record.js';
import { fromDay, sampleDates, toDay } from './demo/calendar.js';
import { DEMO_BUSINESS, TECHNICIAN_TRADES } from './demo/business.js';
import { composeText } from './demo/compose.js';
import type { ReviewPlan } from './demo/compose.js';
import { FIRST_NAMES, LAST_INITIALS, ONE_LINERS, TITLES } from './demo/phrases.js';
import type { Rating } from './demo/phrases.js';
import { createRng } from './demo/prng.js';
import type { Rng } from './demo/prng.js';
import { REPLIES, SIGN_OFFS } from './demo/replies.js';
import { inSeason, SERVICE_STORIES } from './demo/service-stories.js';

export type DemoReview = z.input<typeof ImportReviewSchema>;

export interface DemoDataset {
  business: Business;
  reviews: DemoReview[];
}

export const DEMO_SEED = 20261101;
export const FIRST_DATE = '2022-11-01';
export const LAST_DATE = '2026-10-31';
export const DATASET_URL = new URL('../examples/demo/dataset.json', import.meta.url);

/** Reviews per year of the four (November to October), the later years busier. */
const REVIEWS_PER_YEAR = [126, 144, 156, 174];
/** The rating deck: exact counts, shuffled, so the mix is the same for every seed (70/13/5/4/8 %). */
const RATING_COUNTS: Record<Rating, number> = { 5: 420, 4: 78, 3: 30, 2: 24, 1: 48 };
const REPLY_RATE: Record<Rating, number> = { 5: 0.22, 4: 0.3, 3: 0.6, 2: 0.8, 1: 0.9 };
const UNVERIFIED = 6;
const HIDDEN = 4;

/** A review as planned, with the catalog ids its text was written to mention. */
export interface PlannedReview {
  review: DemoReview;
  plan: ReviewPlan;
}

export function generateDemo(seed = DEMO_SEED): DemoDataset {
  const { business, planned } = planDemo(seed);
  return { business, reviews: planned.map((p) => p.review) };
}

/** `generateDemo` plus the plan of each review, so tests can check that texts mention what they meant to. */
export function planDemo(seed = DEMO_SEED): { business: Business; planned: PlannedReview[] } {
  const rng = createRng(seed);
  const business = DEMO_BUSINESS;

  const dates = REVIEWS_PER_YEAR.flatMap((count, year) => {
    const first = `${2022 + year}-11-01`;
    const last = `${2023 + year}-10-31`;
    return sampleDates(rng, first, last, count, 0.08);
  }).sort();
  const ratings = rng.shuffle(
    (Object.entries(RATING_COUNTS) as [string, number][]).flatMap(([r, n]) => Array<Rating>(n).fill(Number(r) as Rating)),
  );
  const flagged = rng.shuffle(dates.map((_, i) => i)).slice(0, UNVERIFIED + HIDDEN);
  const unverified = new Set(flagged.slice(0, UNVERIFIED));
  const hidden = new Set(flagged.slice(UNVERIFIED));

  const planned = dates.map((date, i): PlannedReview => {
    const rating = ratings[i] ?? 5;
    const kind = rng.weighted({ empty: 2, oneLiner: 14, full: 84 });
    const plan = kind === 'full' ? planReview(rng, business, rating, date) : { ...NO_MENTIONS, rating };
    const composed =
      kind === 'full' ? composeText(rng, plan) : { text: kind === 'empty' ? '' : rng.pick(ONE_LINERS[rating]), critical: rating < 4 };
    const text = composed.text;
    const firstName = rng.pick(FIRST_NAMES);
    const author = {
      name: `${firstName} ${LAST_INITIALS.charAt(rng.int(0, LAST_INITIALS.length - 1))}.`,
      location: plan.area && rng.chance(0.8) ? plan.area.name : rng.chance(0.2) ? rng.pick(business.service_areas).name : null,
    };
    const id = `rev-${String(i + 1).padStart(4, '0')}`;
    const source = sourceFor(rng, id);
    const title = text !== '' && rng.chance(source.platform === 'website' ? 0.6 : 0.12) ? rng.pick(TITLES[rating]) : null;
    const response = rng.chance(REPLY_RATE[rating]) ? reply(rng, date, firstName, plan, composed.critical) : null;
    const lastChange = response?.date ?? date;
    const review: DemoReview = {
      id,
      date,
      rating,
      title,
      text,
      language: 'en',
      author,
      source,
      verified: !unverified.has(i),
      ...(hidden.has(i) ? { hidden: true } : {}),
      response,
      updated_at: `${lastChange}T${pad(rng.int(14, 23))}:${pad(rng.int(0, 59))}:00Z`,
    };
    return { review, plan };
  });
  return { business, planned };
}

const NO_MENTIONS = { technician: null, service: null, area: null };

/**
 * What a full review mentions (about 70% a technician, 84% a service, 36% an area, so that with the
 * one-liners the whole set lands near 60/70/30%): a service in season, a technician of its trade, and
 * now and then the service coordinator instead.
 */
function planReview(rng: Rng, business: Business, rating: Rating, date: string): ReviewPlan {
  const month = Number(date.slice(5, 7));
  const services = business.services.filter((s) => {
    const story = SERVICE_STORIES[s.id];
    return story !== undefined && inSeason(story, month);
  });
  const service = rng.chance(0.84) ? rng.pick(services) : null;
  const trade = service ? SERVICE_STORIES[service.id]?.trade : undefined;
  const office = rng.chance(0.1);
  const crew = business.technicians.filter((t) => {
    const theirs = TECHNICIAN_TRADES[t.id];
    return office ? theirs === 'office' : theirs !== 'office' && (trade === undefined || theirs === trade);
  });
  return {
    rating,
    technician: rng.chance(0.72) ? rng.pick(crew) : null,
    service,
    area: rng.chance(0.36) ? rng.pick(business.service_areas) : null,
  };
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

function sourceFor(rng: Rng, id: string): { platform: string; url: string | null } {
  const platform = rng.weighted({ google: 68, yelp: 14, facebook: 10, website: 8 });
  const token = rng.int(0x100000, 0xffffff).toString(16);
  switch (platform) {
    case 'google':
      return { platform, url: rng.chance(0.9) ? `https://maps.google.example.com/reviews/${token}` : null };
    case 'yelp':
      return { platform, url: `https://www.yelp.example.com/biz/summit-ridge-heating-cooling-plumbing?hrid=${token}` };
    case 'facebook':
      return { platform, url: rng.chance(0.7) ? `https://www.facebook.example.com/summitridgehome/posts/${token}` : null };
    default:
      return { platform, url: rng.chance(0.5) ? `https://summitridgehome.example.com/reviews#${id}` : null };
  }
}

/** An owner reply, 0 to 7 days after the review (never after the last day of the dataset). */
function reply(rng: Rng, date: string, name: string, plan: ReviewPlan, critical: boolean): { text: string; date: string } {
  const tone = plan.rating <= 2 ? 'negative' : plan.rating === 3 || critical ? 'mixed' : 'positive';
  const set = REPLIES[tone];
  const tech = plan.technician;
  const template = tech && rng.chance(0.6) ? rng.pick(set.named) : rng.pick(set.plain);
  const techFirst = tech ? (tech.aliases[0] ?? tech.name) : '';
  const text = template.replaceAll('{name}', name).replaceAll('{techFirst}', techFirst) + rng.pick(SIGN_OFFS);
  const delay = Number(rng.weighted({ 0: 30, 1: 35, 2: 15, 3: 8, 4: 5, 5: 3, 7: 4 }));
  return { text, date: fromDay(Math.min(toDay(date) + delay, toDay(LAST_DATE))) };
}

/** The committed file's exact bytes: 2-space JSON with a trailing newline. */
export function renderDataset(dataset: DemoDataset): string {
  return `${JSON.stringify(dataset, null, 2)}\n`;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const dataset = generateDemo();
  writeFileSync(DATASET_URL, renderDataset(dataset));
  console.log(`wrote ${dataset.reviews.length} reviews to ${fileURLToPath(DATASET_URL)}`);
}

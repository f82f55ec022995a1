import { gbpProfile } from '../gbp.js';
import { normalizeHeader } from '../header-synonyms.js';
import { birdeyeCsv, podiumCsv } from './aggregators.js';
import { facebookRatings } from './facebook.js';
import type { CsvProfile, JsonProfile } from './profile.js';
import { trustpilotApi, trustpilotCsv } from './trustpilot.js';
import { yelpFusion } from './yelp.js';

export type { CsvProfile, JsonProfile } from './profile.js';

/** The known JSON shapes, tried in this order (Google's first: its keys are the most specific). */
export const JSON_PROFILES: readonly JsonProfile[] = [gbpProfile, trustpilotApi, yelpFusion, facebookRatings];
export const CSV_PROFILES: readonly CsvProfile[] = [trustpilotCsv, birdeyeCsv, podiumCsv];

export function detectJsonProfile(doc: unknown): { profile: JsonProfile; reviews: unknown[] } | null {
  for (const profile of JSON_PROFILES) {
    const reviews = profile.reviewsOf(doc);
    if (reviews) return { profile, reviews };
  }
  return null;
}

export function detectCsvProfile(headers: readonly string[]): CsvProfile | null {
  const set = new Set(headers.map(normalizeHeader));
  return CSV_PROFILES.find((p) => p.matches(set)) ?? null;
}

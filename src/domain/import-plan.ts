import { canonicalJson, sha256Hex } from './canonical-json.js';
import { checkDeletions } from './deletion-guard.js';
import type { ImportSummary } from './ports.js';
import { isPublished, type StoredReview } from './review.js';
import { isSampleReviewId } from './sample.js';

/**
 * The hash of what a review says, not of when it was written: `updated_at` is left out, and so are the
 * mention tags the text yields anyway (`derived_tags`): an export lists them in `mentions`, and
 * importing it back must find the record unchanged (contract §3, round trip).
 */
export function reviewContentHash(r: IncomingReview): string {
  const { updated_at: _ignored, derived_tags: derived, ...content } = r;
  if (!derived) return sha256Hex(canonicalJson(content));
  const own = (given: string[], found: string[]) => given.filter((id) => !found.includes(id));
  const tags = content.mention_tags;
  const mention_tags = {
    technicians: own(tags.technicians, derived.technicians),
    services: own(tags.services, derived.services),
    service_areas: own(tags.service_areas, derived.service_areas),
  };
  return sha256Hex(canonicalJson({ ...content, mention_tags }));
}

/**
 * A review as an import gives it: `updated_at` may be absent (the import then stamps it). Its mention
 * tags are kept as given; `derived_tags` names those the import's catalog also finds in the text, for
 * the content hash only (never stored).
 */
export type IncomingReview = Omit<StoredReview, 'updated_at'> & {
  updated_at?: string | undefined;
  derived_tags?: StoredReview['mention_tags'];
};

export interface ExistingRow {
  content_hash: string;
  updated_at: string;
  /** The stored record's `source.platform`. */
  platform: string | null;
}

/**
 * What an import deletes: nothing (upsert), every stored review it does not hold (`--replace`), or the
 * stored reviews of one platform that a complete listing of that platform no longer holds (a sync,
 * contract §3.2), within the deletion guard unless `allowDeletions`.
 */
export type ImportScope = 'upsert' | 'replace' | { platform: string; allowDeletions: boolean };

export interface ImportPlan {
  /** Rows to write, with their content hash and the updated_at they get. */
  writes: { review: StoredReview; content_hash: string; isNew: boolean }[];
  deletes: string[];
  summary: Omit<ImportSummary, 'business'>;
}

/**
 * Decides what an import changes (contract §3): upsert by id; a record whose content is unchanged
 * keeps its stored `updated_at`, so re-importing an export is a no-op; the scope says what is deleted.
 * Sample reviews step aside as the demo does (`sample.ts`): an import that brings any review that is
 * not a sample deletes the stored samples it does not itself bring.
 */
export function planImport(
  existing: ReadonlyMap<string, ExistingRow>,
  incoming: readonly IncomingReview[],
  scope: ImportScope,
  now: string,
): ImportPlan {
  const writes: ImportPlan['writes'] = [];
  let added = 0;
  let updated = 0;
  let unchanged = 0;
  let unpublished = 0;
  const seen = new Set<string>();
  for (const { derived_tags: derived, ...review } of incoming) {
    seen.add(review.id);
    if (!isPublished(review)) unpublished++;
    const hash = reviewContentHash({ ...review, ...(derived ? { derived_tags: derived } : {}) });
    const old = existing.get(review.id);
    if (!old) {
      added++;
      writes.push({ review: { ...review, updated_at: review.updated_at || now }, content_hash: hash, isNew: true });
    } else if (old.content_hash === hash) {
      unchanged++;
    } else {
      updated++;
      // A changed record is newer than its stored version, whatever the file says.
      const stamp = review.updated_at && Date.parse(review.updated_at) > Date.parse(old.updated_at) ? review.updated_at : now;
      writes.push({ review: { ...review, updated_at: stamp }, content_hash: hash, isNew: false });
    }
  }
  const ownData = incoming.some((r) => !isSampleReviewId(r.id));
  const platform = typeof scope === 'object' ? scope.platform : undefined;
  const deletes: string[] = [];
  let samples = 0;
  let platformStored = 0;
  for (const [id, row] of existing) {
    const ofPlatform = platform !== undefined && row.platform === platform;
    if (ofPlatform) platformStored++;
    if (seen.has(id)) continue;
    if (ownData && isSampleReviewId(id)) {
      deletes.push(id);
      samples++;
    } else if (scope === 'replace' || ofPlatform) deletes.push(id);
  }
  if (typeof scope === 'object') checkDeletions(scope.platform, deletes.length - samples, platformStored, scope.allowDeletions);
  return {
    writes,
    deletes,
    summary: {
      added,
      updated,
      unchanged,
      deleted: deletes.length - samples,
      unpublished,
      ...(samples > 0 ? { sample_removed: samples } : {}),
    },
  };
}

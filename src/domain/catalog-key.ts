import { EMPTY_BUSINESS, type Business } from './business.js';
import { canonicalJson, sha256Hex } from './canonical-json.js';

/**
 * The version of the code that turns a stored review into its public JSON (`public-review.ts`, the
 * mention matcher in `mentions.ts`): that renderer's codeVersion. Stored public JSON is keyed
 * by it, so a release that changes either is never served next to JSON the old code wrote: bump it with
 * any such change (`test/snapshot/code-versions.test.ts` fails until it is bumped or the change recorded).
 */
export const PUBLIC_FORMAT_VERSION = 1;

/**
 * The key of what a review's public form depends on besides the review itself: the business, whose
 * catalog the mentions are resolved against (contract §2), and the code that resolves and serializes
 * (`PUBLIC_FORMAT_VERSION`). A snapshot build and a stored public JSON with equal keys agree. No
 * business means the placeholder.
 */
export function catalogKey(business: Business | null): string {
  return sha256Hex(`public-format ${PUBLIC_FORMAT_VERSION}\n${canonicalJson(business ?? EMPTY_BUSINESS)}`);
}

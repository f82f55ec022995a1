import { EMPTY_BUSINESS, type Business } from './business.js';
import { canonicalJson, sha256Hex } from './canonical-json.js';

/**
 * The key of what a review's public form depends on besides the review itself: the business, whose
 * catalog the mentions are resolved against (contract §2). A snapshot build and a stored public JSON
 * (issue 15) with equal keys resolved against the same catalog. No business means the placeholder.
 */
export function catalogKey(business: Business | null): string {
  return sha256Hex(canonicalJson(business ?? EMPTY_BUSINESS));
}

/**
 * Sample reviews: the README's `examples/reviews-spreadsheet.csv` is invented, and says so in its ids.
 * Like the bundled demo (contract §3.1, "the demo steps aside"), sample reviews are shown as samples on
 * every page, and the first import that brings reviews of the business's own removes them in the same
 * transaction and says so, so a newcomer who followed the README never publishes invented reviews beside
 * real ones.
 */
export const SAMPLE_ID_PREFIX = 'sample-';

export function isSampleReviewId(id: string): boolean {
  return id.startsWith(SAMPLE_ID_PREFIX);
}

/** How many of `reviews` are samples: what the pages' banner and the feeds' titles say. */
export function sampleReviewCount(reviews: readonly { id: string }[]): number {
  let n = 0;
  for (const r of reviews) if (isSampleReviewId(r.id)) n++;
  return n;
}

/**
 * The safety rule of a platform sync (contract §3.2): a complete listing is the truth, but a run that
 * would delete more than a fifth of the platform's stored reviews, and more than five, is not applied
 * unless the operator says so (`review-data sync google --allow-deletions`). A platform answering an
 * empty or truncated list that looks complete is far likelier than a business losing a fifth of its
 * reviews between two runs.
 */
const MAX_SHARE = 0.2;
const MAX_COUNT = 5;

export class DeletionGuardError extends Error {
  override name = 'DeletionGuardError';
  readonly code = 'deletion_guard';
  constructor(
    readonly platform: string,
    readonly wouldDelete: number,
    readonly stored: number,
  ) {
    super(
      `the ${platform} listing would delete ${wouldDelete} of the ${stored} stored ${platform} reviews (more than ${MAX_SHARE * 100} % and more than ${MAX_COUNT}): nothing was changed; if they really were deleted on ${platform}, run 'review-data sync ${platform} --allow-deletions'`,
    );
  }
}

/** Throws DeletionGuardError when deleting `wouldDelete` of `stored` reviews needs the operator's word. */
export function checkDeletions(platform: string, wouldDelete: number, stored: number, allowDeletions: boolean): void {
  if (allowDeletions) return;
  if (wouldDelete > MAX_COUNT && wouldDelete > stored * MAX_SHARE) throw new DeletionGuardError(platform, wouldDelete, stored);
}

import type { ClaimOptions, Intent, IntentOutcome, WebSubStore } from '../../src/domain/websub-ports.js';

/** The one due intent, claimed through the worker's own query (claimDueIntents); null when none is free. */
export async function claimOne(store: WebSubStore, options: Omit<ClaimOptions, 'limit'>): Promise<Intent | null> {
  const [intent] = await store.claimDueIntents({ ...options, limit: 1 });
  return intent ?? null;
}

/** One intent's outcome, through the worker's own batch write (completeIntents). */
export async function completeOne(store: WebSubStore, intent: Intent, outcome: IntentOutcome): Promise<boolean> {
  const [done] = await store.completeIntents([{ intent, outcome }]);
  return done ?? false;
}

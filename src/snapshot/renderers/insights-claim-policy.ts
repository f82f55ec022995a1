import { renderShared, type SharedRendering } from './shared-rendering.js';

/**
 * Replicas: how long one without a running worker (seconds of CPU to start) holds back its claim, so that
 * a replica whose worker still runs from the last change renders this one.
 */
const COLD_CLAIM_DELAY_MS = 250;

export interface ClaimOutcome {
  body: string;
  /** Another replica rendered it (read from the store). */
  adopted: boolean;
}

/** Who renders an input: this process, or another replica on the same database. */
export interface ClaimPolicy {
  /**
   * The body for `inputHash`: rendered here by `render`, or another replica's. A rendering something
   * waits for (`background` false: a cold start) is always done here.
   */
  decide(
    name: string,
    inputHash: string,
    options: { background: boolean; warm: boolean; wanted: () => boolean },
    render: () => Promise<string>,
  ): Promise<ClaimOutcome>;
}

/**
 * A lone process renders everything. Replicas on one database (`shared`) render each background input
 * once: the one that claims it renders, the others take its document from the store. A replica whose
 * worker is not running holds its claim back a little, but only once another replica has been seen:
 * until then this process may be alone, and it claims at once.
 */
export function createClaimPolicy(shared: SharedRendering | undefined): ClaimPolicy {
  let othersSeen = false;
  return {
    async decide(name, inputHash, { background, warm, wanted }, render) {
      if (!shared || !background) return { body: await render(), adopted: false };
      const outcome = await renderShared(shared, name, inputHash, wanted, render, warm || !othersSeen ? 0 : COLD_CLAIM_DELAY_MS);
      othersSeen ||= outcome.contended;
      return { body: outcome.body, adopted: outcome.adopted };
    },
  };
}

import { setTimeout as sleep } from 'node:timers/promises';
import type { DocumentCacheStore, RenderClaim, RenderClaimStore } from '../../domain/ports.js';
import { RenderSuperseded } from './document-renderer.js';

/**
 * Replicas on one database share the rendering of a slow document: for each input
 * hash one replica claims the work and renders; the others serve their previous document meanwhile and
 * take the winner's from the document cache once it is stored there.
 */
export interface SharedRendering {
  store: Pick<DocumentCacheStore, 'read'> & RenderClaimStore;
  /** This process, unique among the replicas (`host:pid:random`). */
  holder: string;
  /** How long a claim lasts unless renewed; the holder renews it every third of that while it renders. */
  leaseMs: number;
  /** How often a replica that lost the claim looks for the document, and whether the claim lapsed. */
  pollMs: number;
  now?: () => number;
  /** The store failed: logged; the replica renders by itself, as a lone process does. */
  onError?(error: unknown): void;
}

export interface SharedOutcome {
  body: string;
  /** True when another replica rendered it (the body was read from the store). */
  adopted: boolean;
  /** True when another replica held the claim at some point: this replica is not alone. */
  contended: boolean;
}

/**
 * The body of `name` for `inputHash`: another replica's rendering when the store holds it or once it
 * lands there, else `renderHere`'s when this replica wins the claim (at once, or when the claim of a
 * replica that died or hung lapses). `wanted` turning false (a newer input arrived, the renderer closed)
 * ends a wait with `RenderSuperseded`; a rendering under way here is never abandoned. `claimAfterMs`
 * holds the first claim back: a replica whose worker must start first leaves the work to one whose
 * worker is running (seconds of loading saved) when there is such a replica.
 */
export async function renderShared(
  shared: SharedRendering,
  name: string,
  inputHash: string,
  wanted: () => boolean,
  renderHere: () => Promise<string>,
  claimAfterMs = 0,
): Promise<SharedOutcome> {
  const now = shared.now ?? Date.now;
  const failed = (error: unknown) => (shared.onError?.(error), undefined);
  let contended = false;
  for (let first = true; ; first = false) {
    if (!wanted()) throw new RenderSuperseded(name);
    const stored = await shared.store.read(name, inputHash).catch(failed);
    if (stored) return { body: stored.body, adopted: true, contended: true };
    if (first && claimAfterMs > 0) {
      await sleep(claimAfterMs);
      continue;
    }
    const at = now();
    const claim: RenderClaim = { name, inputHash, holder: shared.holder, now: at, until: at + shared.leaseMs };
    // A store that cannot be reached decides nothing: render here rather than wait on it.
    const won = await shared.store.claim(claim).catch((error: unknown) => failed(error) ?? true);
    if (won) return { body: await holding(shared, claim, renderHere), adopted: false, contended };
    contended = true;
    await sleep(shared.pollMs);
  }
}

/** Renders while renewing the claim; a failed rendering gives the claim up so another replica takes it at once. */
async function holding(shared: SharedRendering, claim: RenderClaim, renderHere: () => Promise<string>): Promise<string> {
  const now = shared.now ?? Date.now;
  const renew = setInterval(
    () => {
      const at = now();
      // Lost (this replica stalled past its lease and another took over): both finish, with equal bytes.
      shared.store.claim({ ...claim, now: at, until: at + shared.leaseMs }).catch((error: unknown) => shared.onError?.(error));
    },
    Math.max(1, Math.floor(shared.leaseMs / 3)),
  );
  renew.unref();
  try {
    // The claim is left to lapse after a success: the document is stored next (the document cache), and
    // a replica that looks before then waits for it rather than rendering it again.
    return await renderHere();
  } catch (error) {
    await shared.store.release(claim).catch((e: unknown) => shared.onError?.(e));
    throw error;
  } finally {
    clearInterval(renew);
  }
}

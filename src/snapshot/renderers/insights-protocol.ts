import type { Business } from '../../domain/business.js';

/**
 * Messages between the server and its insights worker (structured-clone safe: no functions). The
 * reviews travel as one buffer of JSON, encoded in time slices from what the snapshot already holds and
 * transferred, not copied: cloning the view's object graph (or even an array of 50k strings) on the main
 * thread stopped requests for hundreds of milliseconds (issues 11 M2 and 15, docs/benchmarks.md).
 */
export interface InsightsRequest {
  id: number;
  business: Business;
  updatedAt: string;
  /** The published reviews as a JSON array, UTF-8, newest first (the snapshot's `reviewJson`, joined). */
  reviews: Uint8Array;
  baseUrl: string;
  /** The input hash of the document the server already holds: equal inputs are answered `unchanged`. */
  knownHash: string | null;
}

export type InsightsReply =
  | { id: number; ok: true; inputHash: string; body: string }
  | { id: number; ok: true; inputHash: string; unchanged: true }
  | { id: number; ok: false; error: string };

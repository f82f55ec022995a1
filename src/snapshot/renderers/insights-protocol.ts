import type { Business } from '../../domain/business.js';

/**
 * Messages between the server and its insights worker (structured-clone safe: no functions). The
 * reviews travel as the JSON the snapshot already holds: an array of strings clones several times
 * faster on the main thread than the object graph of the view (issue 15, docs/benchmarks.md).
 */
export interface InsightsRequest {
  id: number;
  business: Business;
  updatedAt: string;
  /** Each published review's JSON, newest first (the snapshot's `reviewJson`). */
  reviewJson: readonly string[];
  baseUrl: string;
  /** The input hash of the document the server already holds: equal inputs are answered `unchanged`. */
  knownHash: string | null;
}

export type InsightsReply =
  | { id: number; ok: true; inputHash: string; body: string }
  | { id: number; ok: true; inputHash: string; unchanged: true }
  | { id: number; ok: false; error: string };

import type { Business } from '../../domain/business.js';
import type { StoredAnalysis } from '../../domain/ports.js';
import type { Taxonomy } from '../../insights/taxonomy.js';

/**
 * Messages between the server and its insights worker process (structured-clone safe: no functions;
 * the channel uses advanced serialization). The reviews travel as JSON bytes, sent in parts from what
 * the snapshot already holds: serializing the view's object graph (or even an array of 50k strings), or
 * one 70 MB message, on the main thread stopped requests for hundreds of milliseconds (docs/benchmarks.md).
 * Whether the worker is needed at all is decided on the main thread (the input hash); the worker asks
 * the main thread, which holds the database, for the stored analyses of the reviews it has not cached.
 */
export interface InsightsRequest {
  type: 'render';
  id: number;
  business: Business;
  updatedAt: string;
  baseUrl: string;
  /** The engine's fingerprint (insights-input.ts): part of every stored analysis's key. */
  fingerprint: string;
  /** Analyses are kept in a store: ask for them before analysing, and return the fresh ones. */
  persist: boolean;
  /**
   * Nothing waits for this document (an earlier one is served meanwhile): the worker lowers its CPU
   * priority for good before working on it (background-priority.ts).
   */
  background: boolean;
}

/** Part of the main thread's answer to a lookup: stored analyses it found; `last` ends the answer. */
export interface AnalysesFound {
  type: 'analyses';
  id: number;
  found: StoredAnalysis[];
  last: boolean;
}

/** The first message to a new worker: what its engine is built with. */
export interface WorkerInit {
  type: 'init';
  taxonomies: Taxonomy[];
}

/**
 * Part of request `id`'s reviews, sent before it: the published reviews' JSON, UTF-8, newest first,
 * comma-separated (the snapshot's review bytes), in parts so no one message stops the server's loop.
 */
export interface ReviewsPart {
  type: 'reviews';
  id: number;
  bytes: Uint8Array;
}

export type ToWorker = WorkerInit | ReviewsPart | InsightsRequest | AnalysesFound;

/** The worker asks for the stored analyses of these keys before analysing request `id`. */
export interface AnalysesLookup {
  type: 'lookup';
  id: number;
  keys: string[];
}

/** Analyses the worker computed for request `id`, to be stored; sent in parts before its reply. */
export interface AnalysesComputed {
  type: 'computed';
  id: number;
  analyses: StoredAnalysis[];
}

export type InsightsReply =
  | { type: 'done'; id: number; ok: true; body: string; analyzed: number; restored: number }
  | { type: 'done'; id: number; ok: false; error: string };

export type FromWorker = AnalysesLookup | AnalysesComputed | InsightsReply;

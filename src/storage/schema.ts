import type { Generated } from 'kysely';

/**
 * Table types for Kysely. Column types are the common ground of SQLite and PostgreSQL: text, integer
 * (booleans as 0/1) and JSON stored as text, so one migration set and one query set serve both.
 */
export interface BusinessTable {
  singleton: number;
  doc: string;
  content_hash: string;
  updated_at: string;
  /** 1 for the bundled demo business (migration 0004), which the first import of own data removes. */
  demo: Generated<number>;
}

export interface ReviewsTable {
  id: string;
  date: string;
  rating: number;
  verified: number;
  hidden: number;
  doc: string;
  content_hash: string;
  updated_at: string;
  /**
   * The review's public JSON (migration 0006): null for an unpublished row or one written
   * before the migration. Valid only while `public_key` is the current catalog's key.
   */
  public_doc: string | null;
  /** The catalog key (`catalogKey`) that `public_doc`'s mentions were resolved against. */
  public_key: string | null;
  /** `source.platform` of the record (migration 0010): a platform's listing replaces its own reviews. */
  platform: string | null;
}

export interface DataVersionTable {
  singleton: number;
  version: number;
  changed_at: string;
}

export interface Database {
  business: BusinessTable;
  reviews: ReviewsTable;
  data_version: DataVersionTable;
  websub_subscriptions: WebSubSubscriptionsTable;
  websub_intents: WebSubIntentsTable;
  websub_topics: WebSubTopicsTable;
  websub_deliveries: WebSubDeliveriesTable;
  documents: DocumentsTable;
  review_analyses: ReviewAnalysesTable;
  render_claims: RenderClaimsTable;
  sync_state: SyncStateTable;
  sync_credentials: SyncCredentialsTable;
}

/** WebSub hub state (migration 0002): timestamps as ISO text, compared as text (same width, UTC). */
export interface WebSubSubscriptionsTable {
  id: string;
  topic: string;
  callback: string;
  secret: string | null;
  lease_seconds: number;
  expires_at: string;
  failures: number;
  created_at: string;
  updated_at: string;
}

export interface WebSubIntentsTable {
  id: string;
  mode: string;
  topic: string;
  requested_topic: string;
  callback: string;
  secret: string | null;
  lease_seconds: number;
  created_at: string;
  due_at: string;
  claimed_by: string | null;
  claim_expires_at: string | null;
}

export interface WebSubTopicsTable {
  topic: string;
  content_hash: string;
  source_version: number;
  updated_at: string;
}

export interface WebSubDeliveriesTable {
  subscription_id: string;
  generation: number;
  attempts: number;
  due_at: string;
  claimed_by: string | null;
  claim_expires_at: string | null;
  created_at: string;
}

/** Rendered documents kept across restarts (migration 0005): a cache, safe to empty. */
export interface DocumentsTable {
  name: string;
  /** SHA-256 (hex) of everything the body was computed from. */
  input_hash: string;
  body: string;
  /** The Last-Modified the body was served with (ISO): a restart serves the same bytes with the same date. */
  last_modified: string;
  /** 1 when that date was weak (another content of the resource was published in the same second). */
  weak_date: Generated<number>;
  rendered_at: string;
}

/** Per-review insights analyses kept across restarts (migration 0007): a cache, safe to empty. */
export interface ReviewAnalysesTable {
  /** analysisKey(): the review's text under the engine's fingerprint and taxonomy. */
  key: string;
  /** The engine fingerprint that wrote the row: rows of another one are dropped on the next write. */
  engine: string;
  body: string;
}

/** Claims on renderings of a slow document for an input hash (migration 0009): coordination only. */
export interface RenderClaimsTable {
  name: string;
  input_hash: string;
  /** The claiming process (`host:pid:random`). */
  holder: string;
  /** ISO timestamp; a claim past it is free to take over. */
  expires_at: string;
}

/** One row per review platform (migration 0010): the claim on its sync runs and how they ended. */
export interface SyncStateTable {
  source: string;
  /** The process running a sync now (`host:pid:random`), or null. */
  holder: string | null;
  /** ISO timestamp; a claim past it is free to take over (its holder died or hangs). */
  claim_expires_at: string | null;
  last_started_at: string | null;
  last_finished_at: string | null;
  last_success_at: string | null;
  /** `success` or `failed` (with `last_message`). */
  last_outcome: string | null;
  last_message: string | null;
}

/** OAuth refresh tokens that `review-data connect` stored (migration 0010). Secrets: never logged or served. */
export interface SyncCredentialsTable {
  source: string;
  refresh_token: string;
  updated_at: string;
}

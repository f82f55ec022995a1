import type { Business } from './business.js';
import type { IncomingReview } from './import-plan.js';
import type { StoredReview } from './review.js';

/**
 * Everything the store holds, published or not (the snapshot filters), labelled with the change counter
 * read before the data: the data is never older than its version, at worst newer (one extra rebuild).
 */
export interface DatasetState {
  business: Business | null;
  businessUpdatedAt: string | null;
  reviews: StoredReview[];
  /** The change counter at the time of the read. */
  version: number;
  /** When the last change was committed (ISO): the publication time Last-Modified derives from. */
  changedAt?: string | null;
}

/** The dataset's header: the change counter (read first), when it moved, and the business. */
export interface DatasetHeader {
  business: Business | null;
  businessUpdatedAt: string | null;
  version: number;
  changedAt: string | null;
}

/** A published review's id and content hash: what an incremental snapshot build compares with its cache. */
export interface ReviewStamp {
  id: string;
  contentHash: string;
}

/**
 * A published review as a snapshot build reads it: its stored public JSON when that
 * was resolved against the catalog the build asked for, else its stored record, to resolve and keep.
 */
export type PublishedRecord =
  { id: string; contentHash: string; publicJson: string } | { id: string; contentHash: string; stored: StoredReview };

/** A review's public JSON, resolved against one catalog, to keep for the next build. */
export interface PublicDoc {
  id: string;
  /** The content hash and updated_at of the record it came from: a row written since is left alone. */
  contentHash: string;
  updatedAt: string;
  json: string;
}

export interface ImportInput {
  business?: Business;
  reviews: IncomingReview[];
  /** Make the stored set equal to `reviews`: others are deleted (contract §3 `--replace`). */
  replace: boolean;
  /**
   * `reviews` is a complete listing of this platform (a sync, contract §3.2): the stored reviews of the
   * platform it does not hold are deleted, within the deletion guard (`checkDeletions`) unless
   * `allowDeletions`; reviews of other platforms are kept. Wins over `replace`.
   */
  platformListing?: {
    platform: string;
    allowDeletions: boolean;
    /**
     * The sync run's claim (`SyncStateStore.claim`): checked and extended inside the transaction, so a run
     * whose claim lapsed (it was paused past its lease, and another replica may be running) writes nothing.
     */
    claim?: { holder: string; now: Date; leaseMs: number };
  };
  /** This import is the bundled demo: its business is marked so that own data later replaces it. */
  demo?: boolean;
  /** Plan and count everything, then roll back: nothing is written (`import --dry-run`). */
  dryRun?: boolean;
}

export interface ImportSummary {
  added: number;
  updated: number;
  unchanged: number;
  deleted: number;
  /** Records of the file that are stored but never served (unverified or hidden). */
  unpublished: number;
  business: 'added' | 'updated' | 'unchanged' | 'absent';
  /** Present when this import removed the bundled demo business and its reviews (contract §3.1). */
  demo_removed?: { name: string; reviews: number };
  /** Present when this import removed stored sample reviews (`sample.ts`); not counted in `deleted`. */
  sample_removed?: number;
}

/**
 * The review data port (style.md: the core owns the port, each database implements it). Every
 * method is async and transactional so SQLite and PostgreSQL can both satisfy it.
 */
export interface ReviewStore {
  /** A counter that grows with every committed change; polled to notice other processes' writes. */
  version(): Promise<number>;
  load(): Promise<DatasetState>;
  /** The ids of the stored reviews whose `source.platform` is this one (a sync's deletion candidates). */
  platformIds(platform: string): Promise<string[]>;
  /** The header alone, so a rebuild can read the reviews in pages and only those that changed. */
  header(): Promise<DatasetHeader>;
  /** Stamps of the published reviews in id order, after `afterId` (exclusive), at most `limit`. */
  publishedStamps(afterId: string | null, limit: number): Promise<ReviewStamp[]>;
  /** The stored records of these ids (ids no longer stored are left out). */
  reviewsById(ids: readonly string[]): Promise<StoredReview[]>;
  /**
   * The published reviews among these ids (others are left out): the stored public JSON of those whose
   * key is `catalogKey`, the stored record of the rest.
   */
  publishedById(ids: readonly string[], catalogKey: string): Promise<PublishedRecord[]>;
  /**
   * The published reviews in id order after `afterId` (exclusive), at most `limit`, as `publishedById`
   * gives them: a process's first build reads every review, so it reads them in one pass instead of
   * reading the stamps and then each id (start-up time).
   */
  publishedPage(afterId: string | null, limit: number, catalogKey: string): Promise<PublishedRecord[]>;
  /**
   * Keeps public JSON resolved against `catalogKey` for the next build, for the rows whose content hash
   * and updated_at still match and that do not already hold JSON for that key. A cache: it never moves
   * the change counter, and may fail (a busy SQLite file): callers log and go on.
   */
  storePublic(catalogKey: string, docs: readonly PublicDoc[]): Promise<void>;
  business(): Promise<Business | null>;
  /** True when nothing was ever imported: no business and no reviews. */
  isEmpty(): Promise<boolean>;
  /**
   * Applies an import atomically: all of it or, on any error, nothing. Every published row it writes gets
   * its public JSON, resolved against the business in effect after the import.
   */
  applyImport(input: ImportInput, onProgress?: (done: number, total: number) => void): Promise<ImportSummary>;
}

/** A rendered document kept across restarts: today the slow insights document. */
export interface StoredDocument {
  /** The document's name in the snapshot (`insights.json`). */
  name: string;
  /** SHA-256 (hex) of everything the body was computed from: equal inputs give equal bytes. */
  inputHash: string;
  body: string;
  /** The Last-Modified it was served with (ms, whole seconds), and whether that date was weak. */
  lastModified: number;
  weakDate: boolean;
  /** When it was written (ISO), for operators. */
  renderedAt: string;
}

/**
 * The document cache port: the last rendering of each slow document, so that a fresh process serves it
 * at once instead of answering 503 until its own rendering lands. A cache: losing it costs one recompute.
 */
export interface DocumentCacheStore {
  /** The stored document of that name; with `inputHash`, only if it was rendered from those inputs. */
  read(name: string, inputHash?: string): Promise<StoredDocument | undefined>;
  /** Replaces the stored document of that name. May fail (a busy SQLite file): callers log and go on. */
  write(document: StoredDocument): Promise<void>;
}

/**
 * Claims on renderings: replicas sharing a database agree on which of them renders a
 * slow document for given inputs, and the others read its rendering from the document cache.
 */
export interface RenderClaimStore {
  /**
   * Claims the rendering of `name` for `inputHash` until `until` (one replica renders,
   * the others read its document). True when `holder` holds it now: the claim was free, had lapsed
   * (`now` past its expiry: its holder died or hung) or was already `holder`'s (a renewal). Atomic: of
   * replicas claiming at once, one wins.
   */
  claim(claim: RenderClaim): Promise<boolean>;
  /** Gives a claim up (its rendering failed), so that a waiting replica takes it at once. */
  release(claim: Pick<RenderClaim, 'name' | 'inputHash' | 'holder'>): Promise<void>;
}

/** A replica's claim on rendering a document for an input hash (times in ms since the epoch). */
export interface RenderClaim {
  name: string;
  inputHash: string;
  /** The claiming process, unique per process (`host:pid:random`). */
  holder: string;
  now: number;
  until: number;
}

/** A review's stored analysis: its key (what it was computed from) and the analysis as text. */
export interface StoredAnalysis {
  key: string;
  body: string;
}

/**
 * Per-review insights analyses kept across restarts: the insights worker exits when idle, and
 * the next one reads back what is still valid instead of analysing every review again. Keys cover the
 * review's text and the engine's fingerprint; `engine` is that fingerprint, so a new engine's writes
 * drop the old engine's rows. A cache: losing it costs one full analysis.
 */
export interface AnalysisCacheStore {
  /** The stored analyses of these keys (missing keys are left out). */
  read(keys: readonly string[]): Promise<StoredAnalysis[]>;
  /** Stores analyses computed by `engine`, and removes rows any other engine wrote. */
  write(engine: string, analyses: readonly StoredAnalysis[]): Promise<void>;
}

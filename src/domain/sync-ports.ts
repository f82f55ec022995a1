/** The platforms a sync keeps the stored reviews in step with (contract §3.2). */
export const SYNC_SOURCES = ['google', 'trustpilot'] as const;
export type SyncSource = (typeof SYNC_SOURCES)[number];

export interface SyncClaimRequest {
  source: SyncSource;
  /** The claiming process (`host:pid:random`). */
  holder: string;
  /** The store's clock (`SyncStateStore.clock`), so replicas on hosts whose clocks differ agree. */
  now: Date;
  /** The claim lapses this long after `now` unless renewed: a holder that dies is replaced. */
  leaseMs: number;
  /**
   * A scheduled run's condition: take the claim only when no run of this source started within this
   * many milliseconds before `now`, so replicas asking in the same interval run it once between them.
   */
  notStartedWithinMs?: number;
}

/** A run's claim lapsed and another holder may have taken it: the run must not apply its listing. */
export class SyncClaimLostError extends Error {
  override name = 'SyncClaimLostError';
  readonly code = 'claim_lost';
  constructor(source: string) {
    super(`the ${source} run lost its claim (it was paused longer than its lease): nothing was changed; the next run tries again`);
  }
}

export interface SyncRunRecord {
  at: Date;
  outcome: 'success' | 'failed';
  /** Why it failed, said for the operator (never a secret). */
  message: string | null;
}

export interface SyncStatus {
  holder: string | null;
  claimExpiresAt: Date | null;
  lastStartedAt: Date | null;
  lastSuccessAt: Date | null;
  lastOutcome: string | null;
  lastMessage: string | null;
}

/**
 * The sync port: one claim per platform across replicas, the record of past runs, and the refresh token
 * that `review-data connect` stored for every replica. SQLite and PostgreSQL implement it alike.
 */
export interface SyncStateStore {
  /** The database's clock: claims compare times one clock wrote, whatever the replicas' clocks say. */
  clock(): Promise<Date>;
  /** Takes the source's claim when nobody holds it (or the holder's lapsed); true when taken. */
  claim(request: SyncClaimRequest): Promise<boolean>;
  /** Extends a claim this holder still has; false when it was lost (it lapsed and another took it). */
  renew(source: SyncSource, holder: string, now: Date, leaseMs: number): Promise<boolean>;
  /** Records how the holder's run ended and releases its claim. */
  finish(source: SyncSource, holder: string, run: SyncRunRecord): Promise<void>;
  status(source: SyncSource): Promise<SyncStatus | null>;
  /** When each platform's last successful run ended (for `/metrics`). */
  lastSuccesses(): Promise<Partial<Record<SyncSource, Date>>>;
  refreshToken(source: SyncSource): Promise<string | null>;
  storeRefreshToken(source: SyncSource, token: string, now: Date): Promise<void>;
}

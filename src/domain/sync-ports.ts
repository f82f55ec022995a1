/** The platforms a sync keeps the stored reviews in step with (contract §3.2). */
export const SYNC_SOURCES = ['google', 'trustpilot'] as const;
export type SyncSource = (typeof SYNC_SOURCES)[number];

export interface SyncClaimRequest {
  source: SyncSource;
  /** The claiming process (`host:pid:random`). */
  holder: string;
  now: Date;
  /** The claim lapses this long after `now` unless renewed: a holder that dies is replaced. */
  leaseMs: number;
  /**
   * A scheduled run's condition: take the claim only when no run of this source started after this
   * instant, so replicas whose timers fire in the same interval run it once between them.
   */
  notStartedAfter?: Date;
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

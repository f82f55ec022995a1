import type { SyncSource } from '../domain/sync-ports.js';
import type { RawFile } from '../import/raw-records.js';

/** What one complete listing of a platform gave: its reviews as import records, and how it went. */
export interface Listing {
  /** The reviews mapped as a file import of the same platform's export maps them (contract §3.1). */
  file: RawFile;
  pages: number;
}

/**
 * A review platform (contract §3.2): lists every review of the connected place, page by page with its
 * own authentication, and maps each to an import record. Any failure (network, timeout, a status that
 * retries did not cure, a malformed page, a repeated page token) rejects with a PlatformError: a
 * listing is complete or it is nothing. The sync engine above it is the same for every platform.
 */
export interface PlatformConnector {
  source: SyncSource;
  /** The platform's name for messages ("Google"). */
  label: string;
  list(signal?: AbortSignal): Promise<Listing>;
}

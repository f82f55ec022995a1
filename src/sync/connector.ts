import type { SyncSource } from '../domain/sync-ports.js';
import type { JsonProfile } from '../import/profiles/profile.js';

/** What one complete listing of a platform gave: its review objects as the platform sent them. */
export interface Listing {
  reviews: unknown[];
  pages: number;
}

/**
 * A review platform (contract §3.2): lists every review of the connected place, page by page with its
 * own authentication. Any failure (network, timeout, a status that retries did not cure, a malformed
 * page, a repeated page token) rejects with a PlatformError: a listing is complete or it is nothing. The
 * sync engine above it is the same for every platform, and maps what a connector lists with the file
 * import's profile of the same platform (`profile`), so a review gets one id and record either way.
 */
export interface PlatformConnector {
  source: SyncSource;
  /** The platform's name for messages ("Google"). */
  label: string;
  /** How the platform's review objects become import records: the import's profile of its JSON. */
  profile: JsonProfile;
  list(signal?: AbortSignal): Promise<Listing>;
  /**
   * The platform's review objects of these ids that it still has, read one by one: a review that a
   * listing missed (pages shift when a review is added, edited or removed while they are read) is found
   * here and kept instead of deleted; a review the platform answers "not found" for is gone.
   */
  stillThere(ids: readonly string[], signal?: AbortSignal): Promise<unknown[]>;
}

/**
 * A hint that the store's data may have changed: another replica or an `import` run committed a write.
 * Listeners re-check the store (the change counter decides); a signal may be spurious or repeated, and
 * one may be missed, so a periodic check stays as the safety net (contract §1: changes show within 2 s).
 */
export interface ChangeSignal {
  /** Calls `listener` on every signal; returns the function that stops it. */
  subscribe(listener: () => void): () => void;
  /** Stops listening and releases the connection. */
  close(): Promise<void>;
}

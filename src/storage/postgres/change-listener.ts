import pg from 'pg';
import type { ChangeSignal } from '../../domain/change-signal.js';
import { DATA_CHANGED_CHANNEL } from './change-notify.js';

export interface PostgresChangeSignalOptions {
  url: string;
  channel?: string;
  /** Connection problems, for the log; the listener keeps retrying whatever happens. */
  onError?(error: unknown): void;
  /** Called after each (re)connection; the first connection counts too. */
  onConnect?(reconnected: boolean): void;
  minBackoffMs?: number;
  maxBackoffMs?: number;
}

export interface PostgresChangeSignal extends ChangeSignal {
  /** Resolves once the first LISTEN is in place (or the signal is closed). */
  ready(): Promise<void>;
  /** True while a LISTEN connection is up. */
  connected(): boolean;
}

/**
 * LISTEN on a dedicated connection (a pooled one would be handed to other queries and lose the LISTEN).
 * When that connection drops (a PostgreSQL restart, pg_terminate_backend, a network cut) it reconnects
 * with exponential backoff, and after reconnecting it signals once: notifications sent while nobody
 * listened are gone, so listeners must re-check.
 */
export function createPostgresChangeSignal(options: PostgresChangeSignalOptions): PostgresChangeSignal {
  const channel = options.channel ?? DATA_CHANGED_CHANNEL;
  const minBackoff = options.minBackoffMs ?? 100;
  const maxBackoff = options.maxBackoffMs ?? 5000;
  const listeners = new Set<() => void>();
  let client: pg.Client | null = null;
  let closed = false;
  let everConnected = false;
  let failures = 0;
  let timer: NodeJS.Timeout | null = null;
  let resolveReady!: () => void;
  const readyPromise = new Promise<void>((r) => (resolveReady = r));

  function emit(): void {
    for (const l of [...listeners]) {
      try {
        l();
      } catch (error) {
        options.onError?.(error);
      }
    }
  }

  function scheduleReconnect(): void {
    if (closed || timer) return;
    const delay = Math.min(maxBackoff, minBackoff * 2 ** Math.min(failures, 16));
    failures++;
    timer = setTimeout(() => {
      timer = null;
      void connect();
    }, delay);
    timer.unref();
  }

  async function connect(): Promise<void> {
    if (closed) return;
    const c = new pg.Client({
      connectionString: options.url,
      connectionTimeoutMillis: 5000,
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
    });
    let dead = false;
    const lost = (error?: unknown) => {
      if (dead) return;
      dead = true;
      if (error) options.onError?.(error);
      if (client === c) client = null;
      c.end().catch(() => {});
      scheduleReconnect();
    };
    c.on('error', lost);
    c.on('end', () => lost());
    c.on('notification', (msg) => {
      if (msg.channel === channel) emit();
    });
    try {
      await c.connect();
      // The channel name is ours, a fixed identifier; quoting keeps it literal.
      await c.query(`LISTEN "${channel.replace(/"/g, '""')}"`);
    } catch (error) {
      lost(error);
      return;
    }
    if (dead) return;
    if (closed) {
      dead = true;
      await c.end().catch(() => {});
      return;
    }
    client = c;
    failures = 0;
    const reconnected = everConnected;
    everConnected = true;
    resolveReady();
    options.onConnect?.(reconnected);
    if (reconnected) emit();
  }

  void connect();

  return {
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    ready: () => readyPromise,
    connected: () => client !== null,
    async close() {
      closed = true;
      resolveReady();
      if (timer) clearTimeout(timer);
      timer = null;
      listeners.clear();
      const c = client;
      client = null;
      await c?.end().catch(() => {});
    },
  };
}

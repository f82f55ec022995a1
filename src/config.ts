import { z } from 'zod';

const bool = z
  .union([z.boolean(), z.enum(['true', 'false', '1', '0', 'yes', 'no'])])
  .transform((v) => v === true || v === 'true' || v === '1' || v === 'yes');
const int = (min: number) => z.coerce.number().int().min(min);

/** The only DATABASE_URL whose missing directory is created: `npm start` in a fresh clone. */
export const DEFAULT_DATABASE_URL = 'sqlite:./data/reviews.db';

/**
 * Every setting, from the environment, each also a `serve` flag (contract §1). Flags win. This is the
 * only module that reads environment variables: the rest of the code receives a Config.
 */
export const ConfigSchema = z
  .object({
    PORT: int(0).max(65535).default(8080),
    HOST: z.string().min(1).default('127.0.0.1'),
    BASE_URL: z.url({ protocol: /^https?$/ }).optional(),
    DATABASE_URL: z.string().min(1).default(DEFAULT_DATABASE_URL),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    /** Load the bundled demo business when the database is empty (what `npm start` shows). */
    DEMO_ON_EMPTY: bool.default(true),
    /** How often the server checks the store for changes made by other processes. */
    SNAPSHOT_POLL_MS: int(0).default(1000),
    INSIGHTS_TAXONOMY_FILE: z.string().min(1).optional(),
    /**
     * PostgreSQL replicas: one renders each new insights document, the others read it from the database;
     * a renderer that stops renewing its claim for this long is replaced. 0: every replica renders its own.
     */
    INSIGHTS_RENDER_LEASE_MS: int(0).default(10_000),
    MCP_SESSION_TTL_SECONDS: int(1).default(1800),
    MCP_MAX_SESSIONS: int(1).default(10000),
    /** JSON-RPC messages in one legacy-era batch; more is a -32600 error (issue 11 H1). */
    MCP_MAX_BATCH: int(1).default(20),
    /** Bytes of results one MCP request may produce (a tool answer, a resource, a batch's sum). */
    MCP_MAX_ANSWER_BYTES: int(1024).default(4 * 1024 * 1024),
    /** `initialize` (new sessions) per client address per minute; 0 disables (issue 11 M4). */
    MCP_SESSION_RATE_LIMIT: int(0).default(30),
    WEBSUB_LEASE_MIN: int(1).default(3600),
    WEBSUB_LEASE_MAX: int(1).default(2592000),
    WEBSUB_LEASE_DEFAULT: int(1).default(864000),
    WEBSUB_TIMEOUT_MS: int(1).default(10000),
    WEBSUB_RETRY_DELAYS: z
      .string()
      .regex(/^\s*\d+(\.\d+)?(\s*,\s*\d+(\.\d+)?)*\s*$/, 'a comma-separated list of seconds, e.g. 60,600')
      .default('60,600')
      .transform((s) => s.split(',').map((x) => Number(x.trim()))),
    WEBSUB_ALLOW_PRIVATE_CALLBACKS: bool.default(false),
    WEBSUB_CA_FILE: z.string().min(1).optional(),
    WEBSUB_RATE_LIMIT: int(0).default(60),
    WEBSUB_CONCURRENCY: int(1).default(64),
    /** Contract §8: /metrics answers only with `Authorization: Bearer <token>`; unset, /metrics is a 404. */
    METRICS_TOKEN: z.string().min(1).optional(),
    // Limits (README "Limits"): each bounds the work or memory one client can make the server spend.
    /** Largest request body accepted (413 past it). */
    BODY_LIMIT_BYTES: int(1024).default(1024 * 1024),
    /** Time to receive a whole request, headers and body (408 past it): a trickled body is cut off. */
    REQUEST_TIMEOUT_MS: int(1000).default(30_000),
    /** Time to receive the request headers. */
    HEADERS_TIMEOUT_MS: int(1000).default(10_000),
    /** How long an idle keep-alive connection stays open between requests. */
    KEEP_ALIVE_TIMEOUT_MS: int(100).default(5_000),
    /** Open connections per client address; more are answered 503 and closed. 0: no cap (behind a proxy). */
    MAX_CONNECTIONS_PER_ADDRESS: int(0).default(128),
    /** How long writing an answer may wait for the client to read before the connection is closed. */
    WRITE_TIMEOUT_MS: int(1000).default(30_000),
    /** Memory the cached since answers of one snapshot may take. */
    SINCE_CACHE_BYTES: int(0).default(32 * 1024 * 1024),
    /** Memory the cached search answers of one snapshot may take. */
    SEARCH_CACHE_BYTES: int(0).default(8 * 1024 * 1024),
    /** Memory the cached pages (HTML, sitemaps, llms.txt) of one snapshot may take. */
    PAGE_CACHE_BYTES: int(0).default(16 * 1024 * 1024),
    /**
     * Behind a load balancer: which proxies' X-Forwarded-For to believe, so per-address limits see the
     * client, not the proxy. `true` (any) or comma-separated addresses/CIDRs; unset: none.
     */
    TRUST_PROXY: z
      .string()
      .optional()
      .transform((v) => (v === undefined || v === 'false' ? false : v === 'true' ? true : v)),
  })
  .transform((c) => ({
    ...c,
    BASE_URL: (c.BASE_URL ?? `http://${c.HOST.includes(':') ? `[${c.HOST}]` : c.HOST}:${c.PORT}`).replace(/\/+$/, ''),
  }));
export type Config = z.infer<typeof ConfigSchema>;

export const CONFIG_KEYS = Object.keys(ConfigSchema.in.shape) as (keyof z.input<typeof ConfigSchema>)[];

/** Flag name of a setting: `DATABASE_URL` is `--database-url`. */
export function flagName(key: string): string {
  return key.toLowerCase().replace(/_/g, '-');
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Reads the settings from the environment, overridden by flags; every problem is reported at once. */
export function loadConfig(env: NodeJS.ProcessEnv, flags: Record<string, string | boolean | undefined> = {}): Config {
  const raw: Record<string, unknown> = {};
  for (const key of CONFIG_KEYS) {
    const fromFlag = flags[flagName(key)];
    const value = fromFlag ?? env[key];
    if (value !== undefined && value !== '') raw[key] = value;
  }
  const parsed = ConfigSchema.safeParse(raw);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${String(i.path[0])} (--${flagName(String(i.path[0]))}): ${i.message}`);
    throw new ConfigError(`invalid configuration:\n${lines.join('\n')}`);
  }
  return parsed.data;
}

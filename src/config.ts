import { isIPv4 } from 'node:net';
import { z } from 'zod';

const bool = z
  .union([z.boolean(), z.enum(['true', 'false', '1', '0', 'yes', 'no'])], { error: 'must be true or false (or yes/no, 1/0)' })
  .transform((v) => v === true || v === 'true' || v === '1' || v === 'yes');
/** A whole number setting; whatever is wrong with a value, the message says what is expected. */
const int = (min: number, max?: number) => {
  const expected = `must be a whole number ${max === undefined ? `of ${min} or more` : `from ${min} to ${max}`}`;
  const n = z.coerce.number({ error: expected }).int(expected).min(min, expected);
  return max === undefined ? n : n.max(max, expected);
};

/**
 * A platform endpoint (contract §3.2): https, or http on a loopback address (a local proxy, a test
 * double): a token sent over plain http to another host could be read on the way.
 */
const platformUrl = z.string().refine((u) => {
  if (!URL.canParse(u)) return false;
  const url = new URL(u);
  // An address of 127.0.0.0/8, not a name that starts like one (127.0.0.1.nip.io is a public host).
  const loopback = url.hostname === 'localhost' || url.hostname === '[::1]' || (isIPv4(url.hostname) && url.hostname.startsWith('127.'));
  return url.protocol === 'https:' || (url.protocol === 'http:' && loopback);
}, 'must be an https: URL such as https://mybusiness.googleapis.com (http: only on a loopback address such as 127.0.0.1)');

/** The only DATABASE_URL whose missing directory is created: `npm start` in a fresh clone. */
export const DEFAULT_DATABASE_URL = 'sqlite:./data/reviews.db';

/**
 * Every setting, from the environment, each also a `serve` flag (contract §1). Flags win. This is the
 * only module that reads environment variables: the rest of the code receives a Config.
 */
export const ConfigSchema = z
  .object({
    PORT: int(0, 65535).default(8080),
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
    /** JSON-RPC messages in one legacy-era batch; more is a -32600 error (bounds a request's work). */
    MCP_MAX_BATCH: int(1).default(20),
    /** Bytes of results one MCP request may produce (a tool answer, a resource, a batch's sum). */
    MCP_MAX_ANSWER_BYTES: int(1024).default(4 * 1024 * 1024),
    /** `initialize` (new sessions) per client address per minute; 0 disables. */
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
    // Live sync with the platforms (contract §3.2). Secrets among them are never logged or served.
    /** `accounts/{account}/locations/{location}`: the Business Profile location whose reviews are synced. */
    GOOGLE_LOCATION: z
      .string()
      .regex(
        /^accounts\/[\w-]+\/locations\/[\w-]+$/,
        'must have the form accounts/{account}/locations/{location} (ids of letters, digits, - and _)',
      )
      .optional(),
    GOOGLE_CLIENT_ID: z.string().min(1).optional(),
    GOOGLE_CLIENT_SECRET: z.string().min(1).optional(),
    /** A refresh token for the business.manage scope; else the one `review-data connect google` stored. */
    GOOGLE_REFRESH_TOKEN: z.string().min(1).optional(),
    GOOGLE_API_URL: platformUrl.default('https://mybusiness.googleapis.com'),
    GOOGLE_TOKEN_URL: platformUrl.default('https://oauth2.googleapis.com/token'),
    /** Where `connect google` lists the account's locations (Account Management and Business Information APIs). */
    GOOGLE_ACCOUNTS_API_URL: platformUrl.default('https://mybusinessaccountmanagement.googleapis.com'),
    GOOGLE_BUSINESS_INFO_API_URL: platformUrl.default('https://mybusinessbusinessinformation.googleapis.com'),
    /** Where `connect google` sends the owner to consent (Google's OAuth 2.0 authorization endpoint). */
    GOOGLE_AUTH_URL: platformUrl.default('https://accounts.google.com/o/oauth2/v2/auth'),
    /** Enables POST /api/sync/google?token=… for Pub/Sub push notifications; unset, that path is a 404. */
    GOOGLE_PUSH_TOKEN: z.string().min(16, 'must be at least 16 characters (a random value, e.g. openssl rand -hex 24)').optional(),
    TRUSTPILOT_BUSINESS_UNIT_ID: z
      .string()
      .regex(/^[\w-]+$/, 'must be a Trustpilot business unit id (letters and digits)')
      .optional(),
    TRUSTPILOT_API_KEY: z.string().min(1).optional(),
    TRUSTPILOT_API_URL: platformUrl.default('https://api.trustpilot.com'),
    /** Seconds between scheduled sync runs (at least 5). */
    SYNC_INTERVAL_SECONDS: int(5).default(900),
    /** Each platform request's time limit (an attempt; up to 3 per request). */
    SYNC_TIMEOUT_MS: int(100).default(15_000),
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
  .superRefine((c, ctx) => {
    // A platform half configured is a mistake to say at start-up, not a sync that silently never runs.
    const need = (keys: (keyof typeof c)[], when: string) => {
      for (const key of keys)
        if (c[key] === undefined) ctx.addIssue({ code: 'custom', path: [key], message: `is required when ${when} is set` });
    };
    // The OAuth client alone is what `review-data connect google` needs, before the location is chosen.
    if (c.GOOGLE_CLIENT_ID !== undefined || c.GOOGLE_CLIENT_SECRET !== undefined)
      need(['GOOGLE_CLIENT_ID', 'GOOGLE_CLIENT_SECRET'], c.GOOGLE_CLIENT_ID !== undefined ? 'GOOGLE_CLIENT_ID' : 'GOOGLE_CLIENT_SECRET');
    // A refresh token may come before the location is chosen (`connect google --locations` lists them).
    if (c.GOOGLE_REFRESH_TOKEN !== undefined) need(['GOOGLE_CLIENT_ID', 'GOOGLE_CLIENT_SECRET'], 'GOOGLE_REFRESH_TOKEN');
    const google = (['GOOGLE_LOCATION', 'GOOGLE_PUSH_TOKEN'] as const).find((k) => c[k] !== undefined);
    if (google) need(['GOOGLE_LOCATION', 'GOOGLE_CLIENT_ID', 'GOOGLE_CLIENT_SECRET'], google);
    const trustpilot = (['TRUSTPILOT_BUSINESS_UNIT_ID', 'TRUSTPILOT_API_KEY'] as const).find((k) => c[k] !== undefined);
    if (trustpilot) need(['TRUSTPILOT_BUSINESS_UNIT_ID', 'TRUSTPILOT_API_KEY'], trustpilot);
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
    // The value as given, so "PORT (--port): must be a whole number from 0 to 65535 (got "abc")" says both;
    // never for a secret's setting, nor a value that could carry credentials (a URL's user:password@).
    const shown = (key: string, value: unknown): value is string =>
      typeof value === 'string' && !/TOKEN|SECRET|KEY|PASSWORD|DATABASE_URL/.test(key) && !/[:@/]/.test(value) && value.length <= 64;
    const got = (key: string) => (shown(key, raw[key]) ? ` (got ${JSON.stringify(raw[key])})` : '');
    const lines = parsed.error.issues.map(
      (i) => `  ${String(i.path[0])} (--${flagName(String(i.path[0]))}): ${i.message}${got(String(i.path[0]))}`,
    );
    throw new ConfigError(`invalid configuration:\n${lines.join('\n')}`);
  }
  return parsed.data;
}

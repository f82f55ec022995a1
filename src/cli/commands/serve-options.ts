import { CONFIG_KEYS, ConfigSchema, flagName } from '../../config.js';

type ConfigKey = (typeof CONFIG_KEYS)[number];

/**
 * What each setting of `serve` is, for `serve --help` (contract §1: every setting is also a flag):
 * the value it takes and a line on what it does, as the README's Configuration tables say it. Typed
 * against the schema, so a new setting without a line here does not compile.
 */
const OPTION_HELP = {
  PORT: ['N', 'port to listen on (0 to 65535)'],
  HOST: ['ADDRESS', 'address to listen on'],
  BASE_URL: ['URL', 'public origin of every absolute URL: feeds, Link headers, WebSub topics [http://HOST:PORT]'],
  DATABASE_URL: ['URL', 'sqlite:PATH or postgres://...'],
  LOG_LEVEL: ['LEVEL', 'fatal, error, warn, info, debug, trace or silent'],
  DEMO_ON_EMPTY: ['true|false', 'load the bundled demo when the database is empty'],
  SNAPSHOT_POLL_MS: ['MS', 'how often to check the store for changes made by other processes'],
  INSIGHTS_TAXONOMY_FILE: ['FILE', 'a custom insights taxonomy (JSON), see docs/insights.md'],
  INSIGHTS_RENDER_LEASE_MS: ['MS', 'PostgreSQL: one replica renders each insights document, the others read it; 0: each its own'],
  MCP_SESSION_TTL_SECONDS: ['SECONDS', 'idle MCP sessions expire after this'],
  MCP_MAX_SESSIONS: ['N', 'bound on live MCP sessions'],
  MCP_MAX_BATCH: ['N', 'JSON-RPC messages in one MCP batch'],
  MCP_MAX_ANSWER_BYTES: ['BYTES', 'bytes of results one MCP request may produce'],
  MCP_SESSION_RATE_LIMIT: ['N', 'new MCP sessions per client address per minute; 0: no limit'],
  WEBSUB_LEASE_MIN: ['SECONDS', 'shortest WebSub subscription lease'],
  WEBSUB_LEASE_MAX: ['SECONDS', 'longest WebSub subscription lease'],
  WEBSUB_LEASE_DEFAULT: ['SECONDS', 'lease of a subscription that asks for none'],
  WEBSUB_TIMEOUT_MS: ['MS', 'time limit of every outbound hub request'],
  WEBSUB_RETRY_DELAYS: ['SECONDS,...', 'seconds to wait before each retry of a failed delivery'],
  WEBSUB_ALLOW_PRIVATE_CALLBACKS: ['true|false', 'allow callbacks on loopback or private addresses (tests, intranets)'],
  WEBSUB_CA_FILE: ['FILE', 'extra CA certificates (PEM) trusted for callbacks'],
  WEBSUB_RATE_LIMIT: ['N', 'hub subscription requests per client address per minute; 0: no limit'],
  WEBSUB_CONCURRENCY: ['N', 'deliveries in flight at once'],
  GOOGLE_LOCATION: ['LOCATION', 'the Business Profile location to keep in step with: accounts/{account}/locations/{location}'],
  GOOGLE_CLIENT_ID: ['ID', 'the OAuth client ("Desktop app") for Google sync'],
  GOOGLE_CLIENT_SECRET: ['SECRET', "the OAuth client's secret (never logged)"],
  GOOGLE_REFRESH_TOKEN: ['TOKEN', "a refresh token for business.manage; unset, the one 'review-data connect google' stored"],
  GOOGLE_API_URL: ['URL', 'the Business Profile API (a proxy or a test double; http: only on loopback)'],
  GOOGLE_TOKEN_URL: ['URL', "Google's OAuth token endpoint"],
  GOOGLE_ACCOUNTS_API_URL: ['URL', "the API 'connect google' lists accounts with"],
  GOOGLE_BUSINESS_INFO_API_URL: ['URL', "the API 'connect google' lists locations with"],
  GOOGLE_AUTH_URL: ['URL', "Google's OAuth consent page"],
  GOOGLE_PUSH_TOKEN: ['TOKEN', 'enables POST /api/sync/google?token=... for Pub/Sub push (16 characters or more)'],
  TRUSTPILOT_BUSINESS_UNIT_ID: ['ID', 'the Trustpilot business unit to keep in step with'],
  TRUSTPILOT_API_KEY: ['KEY', 'the Trustpilot API key (never logged)'],
  TRUSTPILOT_API_URL: ['URL', 'the Trustpilot API'],
  SYNC_INTERVAL_SECONDS: ['SECONDS', 'seconds between sync runs (5 or more)'],
  SYNC_TIMEOUT_MS: ['MS', 'time limit of each platform request (up to 3 tries each)'],
  METRICS_TOKEN: ['TOKEN', 'serve GET /metrics to "Authorization: Bearer TOKEN"; unset, /metrics is a 404'],
  BODY_LIMIT_BYTES: ['BYTES', 'largest request body (413 past it)'],
  REQUEST_TIMEOUT_MS: ['MS', 'time to receive a whole request (408 past it)'],
  HEADERS_TIMEOUT_MS: ['MS', 'time to receive the request headers'],
  KEEP_ALIVE_TIMEOUT_MS: ['MS', 'idle time of a keep-alive connection between requests'],
  MAX_CONNECTIONS_PER_ADDRESS: ['N', 'open connections per client address; 0: no cap (behind a proxy)'],
  WRITE_TIMEOUT_MS: ['MS', 'time an answer may wait for the client to read'],
  SINCE_CACHE_BYTES: ['BYTES', 'memory of cached since answers per snapshot'],
  SEARCH_CACHE_BYTES: ['BYTES', 'memory of cached search answers per snapshot, and as much again for MCP tool-call replies'],
  PAGE_CACHE_BYTES: ['BYTES', 'memory of cached pages per snapshot'],
  TRUST_PROXY: ['true|ADDRESSES', "behind a load balancer: which proxies' X-Forwarded-For to believe"],
} as const satisfies Record<ConfigKey, readonly [string, string]>;

/** A setting's default as typed on the command line, when it has one worth showing. */
function defaultOf(defaults: Record<string, unknown>, key: ConfigKey): string | undefined {
  const value = defaults[key];
  if (key === 'BASE_URL' || key === 'TRUST_PROXY' || value === undefined) return undefined;
  return Array.isArray(value) ? value.join(',') : String(value);
}

/** `serve --help`: the synopsis, then one line per option with its value, what it does and its default. */
export function serveUsage(): string {
  const defaults = ConfigSchema.parse({}) as Record<string, unknown>;
  const flags = CONFIG_KEYS.map((key) => {
    const [value, text] = OPTION_HELP[key];
    return { flag: `--${flagName(key)} ${value}`, text, fallback: defaultOf(defaults, key) };
  });
  // A long flag puts its text on the next line, so the column of texts stays narrow.
  const width = Math.min(32, Math.max(...flags.map((f) => f.flag.length)));
  return [
    'review-data serve [--OPTION VALUE]...',
    '  Serves the pages, REST API, feeds, WebSub hub and MCP endpoint. Each option is also an environment',
    '  variable (--port is PORT, --database-url is DATABASE_URL); the option wins. Defaults in brackets.',
    '',
    ...flags.map((f) => {
      const text = `${f.text}${f.fallback !== undefined ? ` [${f.fallback}]` : ''}`;
      return f.flag.length > width ? `  ${f.flag}\n  ${' '.repeat(width)}  ${text}` : `  ${f.flag.padEnd(width)}  ${text}`;
    }),
  ].join('\n');
}

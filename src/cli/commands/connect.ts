import fs from 'node:fs/promises';
import { loadConfig } from '../../config.js';
import { createSyncStateStore } from '../../storage/sync-state-store.js';
import type { Config } from '../../config.js';
import type { SyncStateStore } from '../../domain/sync-ports.js';
import { listGoogleLocations, type GoogleLocation } from '../../sync/google-locations.js';
import { createAccessTokens, exchangeCode, type GoogleClient } from '../../sync/google-oauth.js';
import { googleClient, platformHttp } from '../../sync/index.js';
import { startConsentFlow } from '../../sync/loopback-consent.js';
import { PlatformError } from '../../sync/platform-http.js';
import { parseCommandArgs } from '../args.js';
import { OperatorError, UsageError, type CliCommand } from '../command.js';
import { nearest } from '../suggest.js';
import { withStore } from './database.js';

/** The owner has this long to open the URL and consent. */
const CONSENT_TIMEOUT_MS = 10 * 60_000;

/** The SQLite file and its companions, readable by this user only: they now hold a secret. */
async function restrictSqliteFiles(file: string): Promise<string[]> {
  const done: string[] = [];
  for (const f of [file, `${file}-wal`, `${file}-shm`]) {
    try {
      await fs.chmod(f, 0o600);
      done.push(f);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    }
  }
  return done;
}

/** The locations the stored (or configured) refresh token reaches, or why they cannot be listed now. */
async function locations(
  config: Config,
  client: GoogleClient,
  state: SyncStateStore,
): Promise<{ ok: true; found: GoogleLocation[] } | { ok: false; reason: string }> {
  const http = platformHttp(config);
  const refresh = config.GOOGLE_REFRESH_TOKEN ?? (await state.refreshToken('google'));
  if (!refresh) return { ok: false, reason: "Google is not connected yet: run 'review-data connect google' first" };
  const tokens = createAccessTokens(client, () => Promise.resolve(refresh), http);
  try {
    const apis = { accountsUrl: new URL(config.GOOGLE_ACCOUNTS_API_URL), businessInfoUrl: new URL(config.GOOGLE_BUSINESS_INFO_API_URL) };
    return { ok: true, found: await listGoogleLocations(tokens, apis, http) };
  } catch (e) {
    if (!(e instanceof PlatformError)) throw e;
    const approval =
      e.status === 429 || e.status === 403
        ? " Google answers these only once it has approved the project's access to the Business Profile APIs (README, \"Keep in step with Google\", step 1); then run 'review-data connect google --locations'."
        : '';
    return { ok: false, reason: `could not list the account's locations (${e.message}).${approval}` };
  }
}

/** The listing as lines to copy from, and the next command. */
function locationLines(listed: Awaited<ReturnType<typeof locations>>, syncEvery: number): string {
  if (!listed.ok) return `${listed.reason.charAt(0).toUpperCase()}${listed.reason.slice(1)}`;
  if (listed.found.length === 0)
    return 'The account manages no Business Profile location: connect with the account that manages the business.';
  const next =
    listed.found.length === 1
      ? `Next: export GOOGLE_LOCATION=${listed.found[0]!.name}, then start the server (it syncs at start-up and every ${syncEvery} s) or run review-data sync google.`
      : 'Next: export GOOGLE_LOCATION= one of them, then start the server or run review-data sync google.';
  return ['Locations this account manages:', ...listed.found.map((l) => `  ${l.name}  ${l.title}`), next].join('\n');
}

export const connectCommand: CliCommand = {
  name: 'connect',
  summary: 'connect a Google Business Profile account once, for live sync',
  usage:
    'review-data connect google [--port N] [--locations] [--database-url URL]\n' +
    '  Prints a Google consent URL, receives the answer on a loopback port, and stores the refresh token in the\n' +
    '  database for every replica (needs GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET of a Desktop OAuth client).\n' +
    '  --port N     the loopback port to listen on (default: any free port)\n' +
    '  --locations  only list the locations the connected account manages (for GOOGLE_LOCATION)',
  async run(argv, io) {
    const { values, positionals } = parseCommandArgs(argv, {
      port: { type: 'string', default: '0' },
      locations: { type: 'boolean', default: false },
      'database-url': { type: 'string' },
    });
    if (positionals[0] !== 'google' || positionals.length > 1) {
      const guess = positionals[0] && positionals[0] !== 'trustpilot' ? nearest(positionals[0], ['google']) : undefined;
      throw new UsageError(
        guess ? "did you mean 'connect google'?" : 'name the platform: google (Trustpilot needs no connecting: set TRUSTPILOT_API_KEY)',
      );
    }
    const port = Number(values.port);
    if (!Number.isInteger(port) || port < 0 || port > 65535)
      throw new UsageError(`--port must be a whole number from 0 to 65535 (got ${JSON.stringify(values.port)})`);
    const config = loadConfig(io.env, { 'database-url': values['database-url'] });
    const client = googleClient(config);
    if (!client)
      throw new OperatorError(
        'set GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET first: the OAuth client of type "Desktop app" made for this service (README, "Keep in step with Google")',
      );

    return withStore(io, values['database-url'], async (_store, handle) => {
      const state = createSyncStateStore(handle.db);
      if (values.locations) {
        const listed = await locations(config, client, state);
        if (!listed.ok) {
          io.stderr.write(`review-data connect google: ${listed.reason}\n`);
          return 1;
        }
        io.stdout.write(`${locationLines(listed, config.SYNC_INTERVAL_SECONDS)}\n`);
        return 0;
      }
      const flow = await startConsentFlow({
        authUrl: new URL(config.GOOGLE_AUTH_URL),
        clientId: client.clientId,
        port,
        timeoutMs: CONSENT_TIMEOUT_MS,
      });
      io.stdout.write(
        `Open this URL in a browser, sign in with the Google account that manages the business, and allow access:\n\n  ${flow.url}\n\nWaiting for Google to send the browser back to ${flow.redirectUri} ...\n`,
      );
      const answer = await flow.result;
      if (!answer.ok) {
        io.stderr.write(`review-data connect google: not connected: ${answer.reason}\n`);
        return 1;
      }
      let refreshToken: string;
      try {
        ({ refreshToken } = await exchangeCode(client, answer, platformHttp(config)));
      } catch (e) {
        if (!(e instanceof PlatformError)) throw e;
        io.stderr.write(`review-data connect google: not connected: ${e.message}\n`);
        return 1;
      }
      // The files are made private before the secret is written to them.
      const sqlite = /^sqlite:(?:\/\/)?(.+)$/i.exec(config.DATABASE_URL)?.[1];
      const restricted = sqlite && sqlite !== ':memory:' ? await restrictSqliteFiles(sqlite) : [];
      await state.storeRefreshToken('google', refreshToken, new Date());
      io.stdout.write(
        [
          `Connected: the refresh token is stored in ${handle.describe}, where every replica reads it.`,
          restricted.length > 0
            ? `${restricted.join(', ')} ${restricted.length > 1 ? 'are' : 'is'} now readable by this user only (mode 600): the database holds a secret.`
            : 'Grant access to this database to the service\'s role only: it holds a secret (docs/deployment.md, "Secrets").',
          config.GOOGLE_LOCATION
            ? `Next: start the server (npm start or review-data serve); it syncs ${config.GOOGLE_LOCATION} at start-up and every ${config.SYNC_INTERVAL_SECONDS} s, or run review-data sync google now.`
            : locationLines(await locations(config, client, state), config.SYNC_INTERVAL_SECONDS),
        ].join('\n') + '\n',
      );
      return 0;
    });
  },
};

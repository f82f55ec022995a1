import fs from 'node:fs/promises';
import { loadConfig } from '../../config.js';
import { createSyncStateStore } from '../../storage/sync-state-store.js';
import type { Config } from '../../config.js';
import type { SyncStateStore } from '../../domain/sync-ports.js';
import { listGoogleLocations } from '../../sync/google-locations.js';
import { createAccessTokens, exchangeCode, type GoogleClient } from '../../sync/google-oauth.js';
import { googleClient, platformHttp } from '../../sync/index.js';
import { startConsentFlow } from '../../sync/loopback-consent.js';
import { PlatformError } from '../../sync/platform-http.js';
import { parseCommandArgs } from '../args.js';
import { OperatorError, UsageError, type CliCommand } from '../command.js';
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

/** The locations the stored (or configured) refresh token reaches, as lines to copy into GOOGLE_LOCATION. */
async function locationLines(config: Config, client: GoogleClient, state: SyncStateStore): Promise<string> {
  const http = platformHttp(config);
  const tokens = createAccessTokens(client, async () => config.GOOGLE_REFRESH_TOKEN ?? (await state.refreshToken('google')), http);
  try {
    const apis = { accountsUrl: new URL(config.GOOGLE_ACCOUNTS_API_URL), businessInfoUrl: new URL(config.GOOGLE_BUSINESS_INFO_API_URL) };
    const found = await listGoogleLocations(tokens, apis, http);
    if (found.length === 0) return 'The account manages no Business Profile location: connect with the account that manages the business.';
    return ['Locations this account manages (set GOOGLE_LOCATION to one of them):', ...found.map((l) => `  ${l.name}  ${l.title}`)].join(
      '\n',
    );
  } catch (e) {
    if (!(e instanceof PlatformError)) throw e;
    return `Could not list the account's locations yet (${e.message}). Google answers these only once it has approved the project's access to the Business Profile APIs; then run 'review-data connect google --locations'.`;
  }
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
    if (positionals[0] !== 'google' || positionals.length > 1)
      throw new UsageError('only google is connected this way (Trustpilot uses TRUSTPILOT_API_KEY)');
    const port = Number(values.port);
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError('--port must be a port number');
    const config = loadConfig(io.env, { 'database-url': values['database-url'] });
    const client = googleClient(config);
    if (!client)
      throw new OperatorError(
        'set GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET first: the OAuth client of type "Desktop app" made for this service (README, "Keep in step with Google")',
      );

    return withStore(io, values['database-url'], async (_store, handle) => {
      const state = createSyncStateStore(handle.db);
      if (values.locations) {
        io.stdout.write(`${await locationLines(config, client, state)}\n`);
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
      await state.storeRefreshToken('google', refreshToken, new Date());
      const sqlite = /^sqlite:(?:\/\/)?(.+)$/i.exec(config.DATABASE_URL)?.[1];
      const restricted = sqlite && sqlite !== ':memory:' ? await restrictSqliteFiles(sqlite) : [];
      io.stdout.write(
        [
          `Connected: the refresh token is stored in ${handle.describe}, where every replica reads it.`,
          restricted.length > 0
            ? `${restricted.join(', ')} ${restricted.length > 1 ? 'are' : 'is'} now readable by this user only (mode 600): the database holds a secret.`
            : 'Grant access to this database to the service\'s role only: it holds a secret (docs/deployment.md, "Secrets").',
          config.GOOGLE_LOCATION
            ? `Next: start the server (npm start or review-data serve); it syncs ${config.GOOGLE_LOCATION} at start-up and every ${config.SYNC_INTERVAL_SECONDS} s, or run review-data sync google now.`
            : `${await locationLines(config, client, state)}\nNext: set GOOGLE_LOCATION=accounts/{account}/locations/{location} and start the server, or run review-data sync google.`,
        ].join('\n') + '\n',
      );
      return 0;
    });
  },
};

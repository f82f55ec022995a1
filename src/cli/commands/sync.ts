import os from 'node:os';
import { setTimeout as delay } from 'node:timers/promises';
import { randomUUID } from 'node:crypto';
import { loadConfig } from '../../config.js';
import { SYNC_SOURCES, type SyncSource } from '../../domain/sync-ports.js';
import { createSyncStateStore } from '../../storage/sync-state-store.js';
import { claimLeaseMs, configuredConnectors, missingSettings, platformHttp } from '../../sync/index.js';
import { createSyncEngine, type SyncRunResult } from '../../sync/sync-engine.js';
import { parseCommandArgs } from '../args.js';
import { OperatorError, UsageError, type CliCommand, type CliIo } from '../command.js';
import { nearest } from '../suggest.js';
import { withStore } from './database.js';

/** How often the command asks again while another process runs this platform's sync. */
const WAIT_STEP_MS = 500;

const SETUP: Record<SyncSource, string> = {
  google: 'README, "Keep in step with Google"',
  trustpilot: 'README, "Keep in step with Trustpilot"',
};

/** `review-data sync status`: each platform's configuration and its last runs, as the store records them. */
async function status(io: CliIo, databaseUrl: string | undefined): Promise<number> {
  const config = loadConfig(io.env, { 'database-url': databaseUrl });
  const lines = await withStore(io, databaseUrl, async (_store, handle) => {
    const state = createSyncStateStore(handle.db);
    const out: string[] = [];
    for (const source of SYNC_SOURCES) {
      const missing = missingSettings(config, source);
      const s = await state.status(source);
      const parts = [missing.length === 0 ? 'configured' : `not configured (set ${missing.join(', ')})`];
      if (!s?.lastStartedAt) parts.push('never synced');
      else {
        const running = s.holder !== null && s.claimExpiresAt !== null && s.claimExpiresAt > new Date();
        const outcome = s.lastOutcome ?? (running ? `running now in ${s.holder}` : 'interrupted (its process ended)');
        parts.push(`last run started ${s.lastStartedAt.toISOString()}: ${outcome}${s.lastMessage ? ` (${s.lastMessage})` : ''}`);
        parts.push(`last success ${s.lastSuccessAt?.toISOString() ?? 'never'}`);
      }
      out.push(`${source.padEnd(10)} ${parts.join('; ')}`);
    }
    return out;
  });
  io.stdout.write(lines.join('\n') + '\n');
  return 0;
}

export const syncCommand: CliCommand = {
  name: 'sync',
  summary: 'sync the reviews of a connected platform now (google or trustpilot)',
  usage:
    'review-data sync google|trustpilot [--allow-deletions] [--wait-seconds N] [--database-url URL]\n' +
    'review-data sync status [--database-url URL]\n' +
    '  Lists every review on the platform and makes its stored reviews equal to the listing.\n' +
    '  --allow-deletions  apply a listing that deletes more than 20 % (and more than 5) of them\n' +
    '  --wait-seconds N   how long to wait for a sync running elsewhere to end (default 300)',
  async run(argv, io) {
    const { values, positionals } = parseCommandArgs(argv, {
      'allow-deletions': { type: 'boolean', default: false },
      'wait-seconds': { type: 'string', default: '300' },
      'database-url': { type: 'string' },
    });
    if (positionals[0] === 'status' && positionals.length === 1) return status(io, values['database-url']);
    const source = positionals[0] as SyncSource | undefined;
    if (!source || !(SYNC_SOURCES as readonly string[]).includes(source) || positionals.length > 1) {
      const guess = source ? nearest(source, SYNC_SOURCES) : undefined;
      throw new UsageError(`name one platform: ${SYNC_SOURCES.join(' or ')}, or status${guess ? ` (did you mean '${guess}'?)` : ''}`);
    }
    const waitMs = Number(values['wait-seconds']) * 1000;
    if (!Number.isFinite(waitMs) || waitMs < 0)
      throw new UsageError(`--wait-seconds must be a number of seconds, 0 or more (got ${JSON.stringify(values['wait-seconds'])})`);
    const config = loadConfig(io.env, { 'database-url': values['database-url'] });

    const result = await withStore(io, values['database-url'], async (store, handle) => {
      const state = createSyncStateStore(handle.db);
      const connectors = configuredConnectors(config, state, platformHttp(config)).filter((c) => c.source === source);
      if (connectors.length === 0) {
        const missing = missingSettings(config, source);
        throw new OperatorError(
          `${source} is not configured: set ${missing.join(', ')} in the environment of this command too (${SETUP[source]})`,
        );
      }
      const log = { info: () => undefined, warn: () => undefined };
      const engine = createSyncEngine({
        store,
        state,
        connectors,
        holder: `cli:${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`,
        leaseMs: claimLeaseMs(config),
        log,
      });
      // A run in progress elsewhere (a server's) ends first: its listing may predate what this one sees.
      const deadline = Date.now() + waitMs;
      let said = false;
      for (;;) {
        const run: SyncRunResult = await engine.run(source, { allowDeletions: values['allow-deletions'] });
        if (run.outcome !== 'skipped') return run;
        if (Date.now() >= deadline)
          throw new OperatorError(`a sync of ${source} is still running elsewhere after ${waitMs / 1000} s; try again later`);
        if (!said) io.stderr.write(`a sync of ${source} is running elsewhere; waiting for it to end\n`);
        said = true;
        await delay(WAIT_STEP_MS);
      }
    });
    if (result.outcome !== 'success') {
      io.stderr.write(`review-data sync ${source}: failed, nothing was changed: ${result.message}\n`);
      return 1;
    }
    const { added, updated, unchanged, deleted } = result.summary;
    io.stdout.write(
      `${source}: ${added} added, ${updated} updated, ${unchanged} unchanged, ${deleted} deleted (${result.pages} page(s), ${result.durationMs} ms)\n`,
    );
    return 0;
  },
};

import fs from 'node:fs/promises';
import net from 'node:net';
import { CONFIG_KEYS, flagName, loadConfig, type Config } from '../../config.js';
import { createServer } from '../../server.js';
import { parseCommandArgs } from '../args.js';
import { OperatorError, type CliCommand } from '../command.js';
import { createLogger } from '../logger.js';
import { serveUsage } from './serve-options.js';

const options = Object.fromEntries(CONFIG_KEYS.map((k) => [flagName(k), { type: 'string' as const }]));

/** How to serve elsewhere, said at start-up and when the port is taken. */
function anotherPort(port: number): string {
  const other = port >= 65535 ? 8081 : port + 1;
  return `Another port: PORT=${other} npm start, or npx review-data serve --port ${other}.`;
}

export const serveCommand: CliCommand = {
  name: 'serve',
  summary: 'serve the REST API, feeds, WebSub hub and MCP endpoint',
  get usage() {
    return serveUsage();
  },
  async run(argv, io) {
    const { values } = parseCommandArgs(argv, options, false);
    const config = loadConfig(io.env, values as Record<string, string | undefined>);
    await checkFiles(config);
    const log = createLogger(config.LOG_LEVEL, io.stderr);
    // Said at once, before seconds of start-up work (opening the store, the insights worker).
    await probePort(config.HOST, config.PORT);
    const server = await createServer(config, log);
    try {
      await server.app.listen({ port: config.PORT, host: config.HOST });
    } catch (e) {
      await server.close().catch(() => undefined);
      throw listenFailure(e as NodeJS.ErrnoException, config.HOST, config.PORT);
    }
    const u = server.urls;
    const view = server.snapshots.current().view;
    // Every line is a link that answers: one review's own URLs, not a template a browser cannot open.
    const newest = view.reviews[0]?.id;
    const lines = [
      `Review Data Service is serving ${view.business.name} (${view.reviews.length} published reviews) from ${server.database.describe}`,
      `  web page     ${u.base}/`,
      `  API docs     ${u.base}/docs`,
      `  widget       ${u.base}/widget.js`,
      `  reviews      ${u.reviewsJson}`,
      `  insights     ${u.insightsJson}`,
      `  search       ${u.search}?rating=5&limit=10`,
      `  since        ${u.base}/api/reviews/since/2024-01-01`,
      ...(newest
        ? [`  one review   ${u.base}/reviews/${encodeURIComponent(newest)} (JSON: ${u.base}/api/reviews/${encodeURIComponent(newest)})`]
        : []),
      `  JSON Feed    ${u.feedJson}`,
      `  Atom         ${u.feedXml}`,
      `  OpenAPI      ${u.openapi}`,
      // Endpoints a program POSTs to: marked so, apart from the links a browser opens (GET answers 405).
      'For programs (POST, not pages):',
      `  MCP          ${u.mcp}  (POST)`,
      `  WebSub hub   ${u.hub}  (POST)`,
      ...(config.GOOGLE_PUSH_TOKEN ? [`  Google push  ${u.base}/api/sync/google?token=<GOOGLE_PUSH_TOKEN>  (POST)`] : []),
      anotherPort(config.PORT),
      ...(view.business.demo
        ? [
            '',
            `This is the bundled demo (${view.business.name} is invented). To publish your own reviews:`,
            '  npx review-data init                     writes business.json: fill in your business',
            '  npx review-data import business.json YOUR-REVIEWS-FILE',
            'The first import of your own data removes the demo. The README\'s "Publish your own reviews" has the details.',
          ]
        : []),
    ];
    io.stdout.write(lines.join('\n') + '\n');

    // Graceful shutdown: stop accepting, let in-flight requests finish, close the store.
    await new Promise<void>((resolve) => {
      let stopping = false;
      const stop = (signal: string) => {
        if (stopping) return;
        stopping = true;
        log.info({ signal }, 'shutting down');
        server.close().then(resolve, (err: unknown) => {
          log.error({ err }, 'error during shutdown');
          resolve();
        });
      };
      process.once('SIGTERM', () => stop('SIGTERM'));
      process.once('SIGINT', () => stop('SIGINT'));
    });
    return 0;
  },
};

/**
 * The files settings name, checked before start-up opens the store (contract §8: what to change, one
 * line): a missing WEBSUB_CA_FILE would otherwise surface only as failed deliveries, long after the
 * start, and a missing INSIGHTS_TAXONOMY_FILE only after the demo had been loaded.
 */
async function checkFiles(config: Config): Promise<void> {
  const taxonomy = config.INSIGHTS_TAXONOMY_FILE;
  if (taxonomy !== undefined)
    await fs.access(taxonomy).catch((e: NodeJS.ErrnoException) => {
      throw new OperatorError(
        e.code === 'ENOENT' ? `INSIGHTS_TAXONOMY_FILE: no such file: ${taxonomy}` : `INSIGHTS_TAXONOMY_FILE ${taxonomy}: ${e.message}`,
      );
    });
  const file = config.WEBSUB_CA_FILE;
  if (file === undefined) return;
  const text = await fs.readFile(file, 'utf8').catch((e: NodeJS.ErrnoException) => {
    throw new OperatorError(e.code === 'ENOENT' ? `WEBSUB_CA_FILE: no such file: ${file}` : `WEBSUB_CA_FILE ${file}: ${e.message}`);
  });
  if (!text.includes('-----BEGIN CERTIFICATE-----'))
    throw new OperatorError(`WEBSUB_CA_FILE ${file} holds no PEM certificate ("-----BEGIN CERTIFICATE-----")`);
}

/** A listen failure as what to change (contract §8), e.g. another process on the port. */
function listenFailure(e: NodeJS.ErrnoException, host: string, port: number): Error {
  if (e.code === 'EADDRINUSE') {
    return new OperatorError(
      `port ${port} on ${host} is already in use: stop the other process or choose another port with PORT=${port + 1} or --port ${port + 1}`,
    );
  }
  if (e.code === 'EACCES')
    return new OperatorError(`no permission to listen on port ${port}: choose a port above 1023 with PORT or --port`);
  if (e.code === 'EADDRNOTAVAIL' || e.code === 'ENOTFOUND') {
    return new OperatorError(`cannot listen on ${host}: it is not an address of this machine; change HOST or --host`);
  }
  return e;
}

/** Fails with the listen error's one-line explanation when the port cannot be taken right now. */
async function probePort(host: string, port: number): Promise<void> {
  if (port === 0) return;
  await new Promise<void>((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', (e: NodeJS.ErrnoException) => reject(listenFailure(e, host, port)));
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve()));
  });
}

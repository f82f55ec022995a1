import { CONFIG_KEYS, flagName, loadConfig } from '../../config.js';
import { createServer } from '../../server.js';
import { parseCommandArgs } from '../args.js';
import type { CliCommand } from '../command.js';
import { createLogger } from '../logger.js';

const options = Object.fromEntries(CONFIG_KEYS.map((k) => [flagName(k), { type: 'string' as const }]));

/** How to serve elsewhere, said at start-up and when the port is taken. */
function anotherPort(port: number): string {
  const other = port >= 65535 ? 8081 : port + 1;
  return `Another port: PORT=${other} npm start, or npx review-data serve --port ${other}.`;
}

export const serveCommand: CliCommand = {
  name: 'serve',
  summary: 'serve the REST API, feeds, WebSub hub and MCP endpoint',
  usage: `review-data serve [${CONFIG_KEYS.map((k) => `--${flagName(k)} V`).join('] [')}]\n  Each flag overrides the environment variable of the same name (PORT, HOST, BASE_URL, DATABASE_URL, ...).`,
  async run(argv, io) {
    const { values } = parseCommandArgs(argv, options, false);
    const config = loadConfig(io.env, values as Record<string, string | undefined>);
    const log = createLogger(config.LOG_LEVEL, io.stderr);
    const server = await createServer(config, log);
    try {
      await server.app.listen({ port: config.PORT, host: config.HOST });
    } catch (err) {
      await server.close();
      if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw err;
      io.stderr.write(`Port ${config.PORT} on ${config.HOST} is already in use. ${anotherPort(config.PORT)}\n`);
      return 1;
    }
    const u = server.urls;
    const lines = [
      `Review Data Service is serving ${server.snapshots.current().view.business.name} (${server.snapshots.current().view.reviews.length} published reviews) from ${server.database.describe}`,
      `  web page     ${u.base}/`,
      `  API docs     ${u.base}/docs`,
      `  widget       ${u.base}/widget.js`,
      `  reviews      ${u.reviewsJson}`,
      `  insights     ${u.insightsJson}`,
      `  search       ${u.search}?rating=5&limit=10`,
      `  since        ${u.base}/api/reviews/since/2024-01-01`,
      `  review       ${u.base}/api/reviews/{id}`,
      `  JSON Feed    ${u.feedJson}`,
      `  Atom         ${u.feedXml}`,
      `  WebSub hub   ${u.hub}`,
      `  MCP          ${u.mcp}`,
      `  OpenAPI      ${u.openapi}`,
      anotherPort(config.PORT),
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

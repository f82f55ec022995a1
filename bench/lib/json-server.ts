/**
 * json-server 0.17 (a dev dependency) over a db.json of the same published reviews, the reference point
 * for "at least 10x a naive JSON REST server".
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { freePort, HOST, nodeCommand, startChild, waitForOk, type Child, type Runtime } from './processes.js';
import { ROOT } from './service.js';

export interface JsonServer {
  child: Child;
  base: string;
  stop(): Promise<void>;
}

/** `reviews` as the real server publishes them (newest first), so both search the same records. */
export async function startJsonServer(reviews: unknown[], dir: string, runtime: Runtime = {}): Promise<JsonServer> {
  const db = path.join(dir, 'db.json');
  writeFileSync(db, JSON.stringify({ reviews }));
  const port = await freePort();
  const bin = path.join(ROOT, 'node_modules', 'json-server', 'lib', 'cli', 'bin.js');
  const { command, args } = nodeCommand([bin, db, '--port', String(port), '--host', HOST, '--quiet', '--read-only'], runtime);
  const child = startChild(command, args, process.env);
  const base = `http://${HOST}:${port}`;
  try {
    await waitForOk(`${base}/reviews?_limit=1`, child, 120_000, 50);
    return { child, base, stop: () => child.stop() };
  } catch (error) {
    await child.stop(1000);
    throw error;
  }
}

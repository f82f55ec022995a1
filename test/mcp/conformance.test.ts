import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ensureBuilt, PACKAGE_ROOT } from '../support/replica.js';

const enabled = process.env.MCP_CONFORMANCE === '1' || process.env.CI === 'true';
const SCRIPT = path.join(PACKAGE_ROOT, 'test', 'mcp', 'conformance.sh');

/**
 * The official MCP conformance suite and the MCP Inspector CLI (test/mcp/conformance.sh). Opt-in:
 * they come from the npm registry and need Node 22, so they run in CI or with MCP_CONFORMANCE=1.
 */
describe('MCP conformance suite and Inspector CLI', () => {
  it.runIf(enabled)(
    'pass against a real server process (both eras)',
    async (ctx) => {
      await ensureBuilt();
      const { code, output } = await new Promise<{ code: number | null; output: string }>((resolve) => {
        const child = spawn('bash', [SCRIPT], { cwd: PACKAGE_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
        let out = '';
        child.stdout.on('data', (d: Buffer) => (out += d.toString()));
        child.stderr.on('data', (d: Buffer) => (out += d.toString()));
        const timer = setTimeout(() => child.kill('SIGKILL'), 290_000);
        child.on('exit', (c) => {
          clearTimeout(timer);
          resolve({ code: c, output: out });
        });
      });
      if (code === 77) {
        console.warn(`MCP conformance SKIPPED: the npm registry is unreachable.\n${output}`);
        ctx.skip('the npm registry is unreachable: conformance tools could not be installed');
      }
      expect(code, output).toBe(0);
    },
    300_000,
  );

  it.skipIf(enabled)('skipped: set MCP_CONFORMANCE=1 (or CI=true) to run the official conformance suite and the Inspector CLI', () => {
    console.warn('MCP conformance suite not run: set MCP_CONFORMANCE=1 (or CI=true) to run test/mcp/conformance.sh');
  });
});

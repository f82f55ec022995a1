import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const CHILD = path.join(path.dirname(fileURLToPath(import.meta.url)), 'support', 'large-batch-child.ts');
// Far below what the unbounded answers needed (6.25 GB RSS at 50,601 reviews in the red-team run); the snapshot of 10,000 long reviews takes about 100 MB of it.
const HEAP_MB = 256;

interface ChildReport {
  datasetBytes: number;
  since100: { status: number; codes: unknown[] };
  since20: { status: number; bytes: number; codes: unknown[] };
  reads: { statuses: number[]; codes: unknown[] };
  search: { status: number; codes: unknown[] };
}

function run(count: number): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [`--max-old-space-size=${HEAP_MB}`, '--import', 'tsx', CHILD, String(count)], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NODE_ENV: 'test' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** One MCP request could exhaust memory (a red-team finding). With a bounded heap, the same requests now get bounded answers. */
describe('MCP over a large dataset with a bounded heap', () => {
  it('a batch of 100 get_reviews_since, the largest allowed batch, and 32 concurrent resource batches leave the process alive', async () => {
    const { code, stdout, stderr } = await run(10_000);
    expect(stderr).not.toMatch(/heap out of memory/i);
    expect(code, stderr.slice(-2000)).toBe(0);
    const out = JSON.parse(stdout.trim().split('\n').at(-1)!) as ChildReport;
    expect(out.datasetBytes).toBeGreaterThan(20 * 2 ** 20); // the dataset is far bigger than an answer may be
    expect(out.since100).toEqual({ status: 400, codes: [-32600] }); // over MCP_MAX_BATCH: refused whole
    expect(out.since20.status).toBe(200);
    expect(out.since20.codes.every((c) => c === 'ok' || c === 'tool-error')).toBe(true); // past the limit: payload_too_large
    expect(out.since20.bytes).toBeLessThan(2 * 4 * 2 ** 20); // MCP_MAX_ANSWER_BYTES plus one reply at most
    expect(out.reads).toEqual({ statuses: [200], codes: [-32005] }); // over the answer limit: an error, no copy
    expect(out.search).toEqual({ status: 200, codes: ['ok'] });
  }, 180_000);
});

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { CliIo } from '../../../src/cli/command.js';
import { evalAbsaCommand } from '../../../src/cli/commands/eval-absa.js';

function capture(): { io: CliIo; out: () => string; err: () => string } {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let o = '';
  let e = '';
  stdout.on('data', (c: Buffer) => (o += c.toString()));
  stderr.on('data', (c: Buffer) => (e += c.toString()));
  return { io: { stdout, stderr, env: {}, cwd: process.cwd() }, out: () => o, err: () => e };
}

const dir = mkdtempSync(join(tmpdir(), 'eval-absa-'));
const file = join(dir, 'sample.jsonl');
writeFileSync(
  file,
  [
    { id: 'a', text: 'The tech showed up 2 hours late and never called.', aspects: [{ aspect: 'punctuality', polarity: 'negative' }] },
    {
      id: 'b',
      text: 'Fair price and very polite.',
      aspects: [
        { aspect: 'price', polarity: 'positive' },
        { aspect: 'professionalism', polarity: 'positive' },
      ],
    },
    { id: 'c', text: 'Highly recommend!', aspects: [] },
  ]
    .map((l) => JSON.stringify(l))
    .join('\n'),
);

describe('eval-absa command', () => {
  it('prints the scores as the last line, as one JSON object', async () => {
    const c = capture();
    expect(await evalAbsaCommand.run(['--data', file, '--taxonomy', 'home-services'], c.io)).toBe(0);
    const last = c.out().trim().split('\n').at(-1) ?? '';
    const scores = JSON.parse(last) as {
      sentences: number;
      detection: { precision: number; recall: number; f1: number };
      polarity: { accuracy: number; n: number };
    };
    expect(scores.sentences).toBe(3);
    expect(scores.polarity.n).toBe(3);
    for (const v of [scores.detection.precision, scores.detection.recall, scores.detection.f1, scores.polarity.accuracy]) {
      expect(v).toBeGreaterThanOrEqual(0);
      expect(v).toBeLessThanOrEqual(1);
    }
  });

  it('reads each line in its review (rating, neighbours) and reports per-aspect shares of what the service counts', async () => {
    const reviewed = join(dir, 'reviewed.jsonl');
    const line = (id: string, text: string, rating: number, aspects: Array<{ aspect: string; polarity: string }>) =>
      JSON.stringify({ id, text, aspects, review: `r-${rating}`, rating });
    writeFileSync(
      reviewed,
      [
        line('a1', 'We called them on a Monday.', 5, []),
        line('a2', 'Fair price and very polite.', 5, [
          { aspect: 'price', polarity: 'positive' },
          { aspect: 'professionalism', polarity: 'positive' },
        ]),
        line('b1', 'They charged us $900 for a faucet.', 1, [{ aspect: 'price', polarity: 'negative' }]),
      ].join('\n'),
    );
    const c = capture();
    expect(await evalAbsaCommand.run(['--data', reviewed], c.io)).toBe(0);
    const scores = JSON.parse(c.out().trim().split('\n').at(-1) ?? '') as {
      sentences: number;
      reported: { judgements: number; aspects: Record<string, { labelled: number; labelled_positive_share: number; reported: number }> };
    };
    expect(scores.sentences).toBe(3);
    expect(scores.reported.aspects.price).toMatchObject({ labelled: 2, labelled_positive_share: 0.5 });
    expect(scores.reported.judgements).toBeGreaterThan(0);
  });

  it('lists misclassified sentences before the JSON line with --errors', async () => {
    const bad = join(dir, 'bad-labels.jsonl');
    writeFileSync(bad, JSON.stringify({ id: 'x1', text: 'Fair price.', aspects: [{ aspect: 'cleanliness', polarity: 'negative' }] }));
    const c = capture();
    expect(await evalAbsaCommand.run(['--data', bad, '--errors'], c.io)).toBe(0);
    const lines = c.out().trim().split('\n');
    expect(lines[0]).toContain('x1');
    expect(() => JSON.parse(lines.at(-1) ?? '')).not.toThrow();
  });

  it('exits 2 with a message on a missing file, an unknown taxonomy or no --data', async () => {
    for (const argv of [['--data', join(dir, 'nope.jsonl')], ['--data', file, '--taxonomy', 'bakeries'], [], ['--data', file, '--bogus']]) {
      const c = capture();
      expect(await evalAbsaCommand.run(argv, c.io)).toBe(2);
      expect(c.err()).toMatch(/eval-absa: /);
    }
  });
});

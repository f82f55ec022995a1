import { describe, expect, it } from 'vitest';
import type { Review } from '../../src/domain/review.js';
import { createInsightsEngine } from '../../src/insights/engine.js';
import { fixtureReview, fixtureView } from '../support/insights-fixture.js';

const OPENERS = ['Mike was on time', 'The tech showed up an hour late', 'Jose explained everything', 'They left a mess', 'Fair price'];
const CLOSERS = [
  'and the repair held up.',
  'but the office never called back.',
  'and cleaned up after.',
  'and the price was a rip off.',
  'and fixed it fast.',
];

function manyReviews(n: number): Review[] {
  return Array.from({ length: n }, (_, i) => {
    const day = new Date(Date.UTC(2026, 10, 1) - Math.floor(i / 4) * 86_400_000).toISOString().slice(0, 10);
    const text = `${OPENERS[i % 5] ?? ''} ${CLOSERS[Math.floor(i / 5) % 5] ?? ''} Job ${i}.`;
    return fixtureReview([`r${String(i).padStart(5, '0')}`, day, 1 + (i % 5), text]);
  });
}

describe('incremental recompute (target: a change at 10k reviews reflected within 1 s)', () => {
  it('analyses only the changed review and reflects it within a second', () => {
    const engine = createInsightsEngine();
    const reviews = manyReviews(10_000);
    const first = engine.compute(fixtureView(reviews));
    expect(engine.lastRun()).toEqual({ analyzed: 10_000, reused: 0, restored: 0 });

    const target = reviews[1234];
    if (!target) throw new Error('fixture too small');
    const edited = reviews.map((r) =>
      r === target ? { ...r, text: 'Spotless work, they cleaned up everything.', updated_at: '2026-11-05T00:00:00Z' } : r,
    );
    const started = performance.now();
    const next = engine.compute(fixtureView(edited));
    const elapsed = performance.now() - started;

    expect(engine.lastRun()).toEqual({ analyzed: 1, reused: 9_999, restored: 0 });
    expect(elapsed).toBeLessThan(1000);
    const clean = (d: typeof first) => d.aspects.find((a) => a.id === 'cleanliness')?.positive ?? 0;
    expect(clean(next)).toBe(clean(first) + (target.text.includes('cleaned up') ? 0 : 1));
    expect(next.generated_at).toBe('2026-11-05T00:00:00Z');
  }, 60_000);
});

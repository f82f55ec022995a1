import type { AggregateRating } from '../../domain/aggregate.js';
import type { AspectInsight } from '../../insights/schema.js';
import { percent } from '../format.js';

/**
 * Charts drawn on the server as inline SVG bars inside ordinary HTML rows: the numbers are real text
 * (read by screen readers and search engines), the bars are decoration, and nothing runs in the browser.
 */

function Bar({ parts }: { parts: { value: number; className: string }[] }) {
  let x = 0;
  return (
    <svg class="bar" viewBox="0 0 100 10" preserveAspectRatio="none" aria-hidden="true" focusable="false">
      <rect class="bar-track" width="100" height="10" rx="2" />
      {parts.map((p) => {
        const rect = <rect class={p.className} x={x.toFixed(2)} width={p.value.toFixed(2)} height="10" />;
        x += p.value;
        return rect;
      })}
    </svg>
  );
}

export function RatingDistribution({ aggregate }: { aggregate: AggregateRating }) {
  const total = aggregate.review_count;
  const rows = (['5', '4', '3', '2', '1'] as const).map((star) => ({ star, count: aggregate.distribution[star] }));
  return (
    <figure class="chart chart-compact">
      <figcaption class="chart-title">How customers rate us</figcaption>
      <ul class="chart-rows">
        {rows.map(({ star, count }) => (
          <li key={star} class="chart-row">
            <span class="chart-label">
              {star} {star === '1' ? 'star' : 'stars'}
            </span>
            <Bar parts={[{ value: total === 0 ? 0 : (count / total) * 100, className: 'bar-rating' }]} />
            <span class="chart-value">
              {count.toLocaleString('en-US')} <span class="muted">({percent(count, total)}%)</span>
            </span>
          </li>
        ))}
      </ul>
    </figure>
  );
}

/** Positive, neutral and negative shares of each aspect's mentions, most discussed first. */
export function AspectChart({ aspects, limit = 8 }: { aspects: readonly AspectInsight[]; limit?: number }) {
  const shown = [...aspects]
    .filter((a) => a.mentions > 0)
    .sort((a, b) => b.mentions - a.mentions || a.label.localeCompare(b.label))
    .slice(0, limit);
  if (shown.length === 0) return null;
  return (
    <figure class="chart">
      <figcaption class="chart-title">What customers talk about (reviews that mention it)</figcaption>
      <p class="legend" aria-hidden="true">
        <span class="key key-positive" /> praise <span class="key key-neutral" /> neutral <span class="key key-negative" /> criticism
      </p>
      <ul class="chart-rows">
        {shown.map((a) => {
          const share = (n: number) => (n / a.mentions) * 100;
          return (
            <li key={a.id} class="chart-row">
              <span class="chart-label">
                {a.label} <span class="muted">({a.mentions.toLocaleString('en-US')})</span>
              </span>
              <Bar
                parts={[
                  { value: share(a.positive), className: 'bar-positive' },
                  { value: share(a.neutral), className: 'bar-neutral' },
                  { value: share(a.negative), className: 'bar-negative' },
                ]}
              />
              <span class="chart-value">
                {percent(a.positive, a.mentions)}% praise <span class="muted">· {percent(a.negative, a.mentions)}% criticism</span>
              </span>
            </li>
          );
        })}
      </ul>
    </figure>
  );
}

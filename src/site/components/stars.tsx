/** Star ratings as inline SVG: whole stars for one review, a partial fill for an average. */

const STAR = 'M12 2l3.1 6.6 7.2.8-5.4 4.9 1.5 7.1L12 17.8 5.6 21.4 7.1 14.3 1.7 9.4l7.2-.8z';

export function Stars({ rating }: { rating: number }) {
  // SVG rather than star characters: the empty stars are decoration, not text that must meet contrast.
  return (
    <svg class="stars" viewBox="0 0 120 24" width="90" height="18" role="img" aria-label={`${rating} out of 5 stars`}>
      {[0, 1, 2, 3, 4].map((i) => (
        <path key={i} class={i < rating ? 'star-on' : 'star-off'} d={STAR} transform={`translate(${i * 24} 0)`} />
      ))}
    </svg>
  );
}

/** Five stars filled to `value` out of 5; `id` keeps the clip path unique on the page. */
export function StarMeter({ value, id, label }: { value: number; id: string; label: string }) {
  const width = (Math.max(0, Math.min(5, value)) / 5) * 120;
  const stars = [0, 1, 2, 3, 4].map((i) => <path key={i} d={STAR} transform={`translate(${i * 24} 0)`} />);
  return (
    <svg class="star-meter" viewBox="0 0 120 24" width="120" height="24" role="img" aria-label={label}>
      <defs>
        <clipPath id={id}>
          <rect width={width.toFixed(1)} height="24" />
        </clipPath>
      </defs>
      <g class="star-empty">{stars}</g>
      <g class="star-full" clip-path={`url(#${id})`}>
        {stars}
      </g>
    </svg>
  );
}

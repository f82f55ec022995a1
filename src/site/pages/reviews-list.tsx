import type { Issue } from '../../domain/errors.js';
import type { Review } from '../../domain/review.js';
import { SEARCH_LIMIT_DEFAULT, SORTS, type SearchParams } from '../../domain/search-params.js';
import { ReviewCard } from '../components/review-card.js';
import { plural } from '../format.js';
import { Layout } from '../layout.js';
import type { SiteContext } from '../site-context.js';

interface Props {
  ctx: SiteContext;
  /** The request's parameters as given (for the form), and as parsed when valid. */
  raw: Record<string, string>;
  params: SearchParams | null;
  issues: Issue[];
  reviews: readonly Review[];
  total: number;
  nextCursor: string | null;
}

const SORT_LABELS: Record<(typeof SORTS)[number], string> = {
  newest: 'Newest first',
  oldest: 'Oldest first',
  highest: 'Highest rating first',
  lowest: 'Lowest rating first',
};
const LIMITS = [10, 20, 50, 100];

/** Query string for /reviews with the given parameters (empty ones left out). */
export function reviewsQuery(params: Record<string, string | number | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '') q.set(k, String(v));
  const s = q.toString();
  return s ? `?${s}` : '';
}

function Select(p: { name: string; label: string; value: string; options: [string, string][] }) {
  return (
    <p class="field">
      <label for={`f-${p.name}`}>{p.label}</label>
      <select id={`f-${p.name}`} name={p.name}>
        {p.options.map(([value, text]) => (
          <option key={value} value={value} selected={value === p.value}>
            {text}
          </option>
        ))}
      </select>
    </p>
  );
}

function Input(p: { name: string; label: string; value: string; type: string; placeholder?: string }) {
  return (
    <p class="field">
      <label for={`f-${p.name}`}>{p.label}</label>
      <input id={`f-${p.name}`} name={p.name} type={p.type} value={p.value} placeholder={p.placeholder} />
    </p>
  );
}

/**
 * GET /reviews: the search API as a page (contract §7). A plain GET form with the API's own parameter
 * names, so a filtered page and the API answer for the same query string are the same reviews.
 */
export function ReviewsListPage(p: Props) {
  const { business, urls, aggregate } = p.ctx.view;
  const v = (name: string) => p.raw[name] ?? '';
  const stars: [string, string][] = [
    ['', 'Any'],
    ...[5, 4, 3, 2, 1].map((n): [string, string] => [String(n), `${n} ${n === 1 ? 'star' : 'stars'}`]),
  ];
  const minStars: [string, string][] = [['', 'Any'], ...[4, 3, 2].map((n): [string, string] => [String(n), `${n} stars or more`])];
  const filtered = Object.keys(p.raw).some((k) => k !== 'limit' && k !== 'sort' && k !== 'cursor' && p.raw[k] !== '');
  const limit = p.params?.limit ?? SEARCH_LIMIT_DEFAULT;
  const { cursor: _cursor, ...keep } = p.params ?? {};
  return (
    <Layout
      urls={urls}
      businessName={business.name}
      notice={p.ctx.notice}
      title={`Reviews of ${business.name}`}
      description={`All ${aggregate.review_count} verified customer reviews of ${business.name}, with filters by rating, date, technician and service.`}
      canonical={`${urls.base}/reviews`}
      json={{ href: `${urls.search}${reviewsQuery(p.raw)}`, title: 'These reviews as JSON (search API)' }}
      noindex={filtered || p.raw.cursor !== undefined}
    >
      <h1>Reviews of {business.name}</h1>
      <form class="filters card" method="get" action={`${urls.base}/reviews`} role="search" aria-label="Filter reviews">
        <Select name="rating" label="Rating" value={v('rating')} options={stars} />
        <Select name="min_rating" label="At least" value={v('min_rating')} options={minStars} />
        <Input name="query" label="Words in the review" value={v('query')} type="search" placeholder="e.g. on time" />
        <Select
          name="mentions_technician"
          label="Technician"
          value={v('mentions_technician')}
          options={[['', 'Anyone'], ...business.technicians.map((t): [string, string] => [t.id, t.name])]}
        />
        <Select
          name="mentions_service"
          label="Service"
          value={v('mentions_service')}
          options={[['', 'Any service'], ...business.services.map((s): [string, string] => [s.id, s.name])]}
        />
        <Input name="since" label="From (date)" value={v('since')} type="date" />
        <Input name="until" label="Until (date)" value={v('until')} type="date" />
        <Select name="sort" label="Order" value={v('sort') || 'newest'} options={SORTS.map((s): [string, string] => [s, SORT_LABELS[s]])} />
        <Select name="limit" label="Per page" value={String(limit)} options={LIMITS.map((n): [string, string] => [String(n), String(n)])} />
        <p class="field actions">
          <button type="submit">Show reviews</button>
          <a href={`${urls.base}/reviews`}>Clear filters</a>
        </p>
      </form>
      {p.issues.length ? (
        <div class="notice" role="alert">
          <h2>These filters could not be applied</h2>
          <ul>
            {p.issues.map((i) => (
              <li key={i.message}>{i.message}</li>
            ))}
          </ul>
        </div>
      ) : (
        <section aria-labelledby="results-title">
          <h2 id="results-title" class="results-title">
            {p.total === 0
              ? 'No review matches these filters'
              : `Showing ${p.reviews.length.toLocaleString('en-US')} of ${plural(p.total, filtered ? 'matching review' : 'review')}`}
          </h2>
          {p.reviews.map((r) => (
            <ReviewCard key={r.id} review={r} urls={urls} businessName={business.name} />
          ))}
          <nav class="pager" aria-label="Pages">
            {p.raw.cursor ? <a href={`${urls.base}/reviews${reviewsQuery({ ...keep })}`}>First page</a> : null}
            {p.nextCursor ? (
              <a rel="next" href={`${urls.base}/reviews${reviewsQuery({ ...keep, cursor: p.nextCursor })}`}>
                Next page
              </a>
            ) : null}
          </nav>
        </section>
      )}
    </Layout>
  );
}

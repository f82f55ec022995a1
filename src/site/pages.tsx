import type { Review } from '../domain/review.js';
import { parseSearchQuery } from '../domain/search-params.js';
import { withDecodedCursor } from '../domain/search-query.js';
import { CatalogPage, type CatalogKind, type CatalogEntry } from './pages/catalog.js';
import { EmbedPage, EMBED_DEFAULT, EMBED_MAX } from './pages/embed.js';
import { HomePage } from './pages/home.js';
import { NotFoundPage } from './pages/not-found.js';
import { ReviewPage } from './pages/review.js';
import { ReviewsListPage } from './pages/reviews-list.js';
import { DocsPage } from './pages/docs.js';
import { renderDocument } from './html.js';
import type { SiteContext } from './site-context.js';

/** A rendered page and its status: the routes add validators and headers. */
export interface PageResult {
  status: 200 | 400 | 404;
  html: string;
}

const ok = (html: string): PageResult => ({ status: 200, html });

export function renderHome(ctx: SiteContext): PageResult {
  return ok(renderDocument(<HomePage ctx={ctx} />));
}

export function renderNotFound(ctx: SiteContext, what: string): PageResult {
  return { status: 404, html: renderDocument(<NotFoundPage ctx={ctx} what={what} />) };
}

export function renderReview(ctx: SiteContext, id: string): PageResult {
  const pos = ctx.snapshot.positionOf(id);
  const review = pos === undefined ? undefined : ctx.view.reviews[pos];
  if (!review) return renderNotFound(ctx, 'review');
  return ok(renderDocument(<ReviewPage ctx={ctx} review={review} />));
}

/**
 * /reviews with the search API's parameters, through the same parser and the same search over the
 * snapshot's index as GET /api/reviews/search, so the two always list the same reviews.
 */
export function renderReviewsList(ctx: SiteContext, query: Record<string, unknown>): PageResult {
  const raw: Record<string, string> = {};
  for (const [k, v] of Object.entries(query)) if (typeof v === 'string') raw[k] = v;
  const parsed = withDecodedCursor(parseSearchQuery(query));
  if (!parsed.ok) {
    const page = <ReviewsListPage ctx={ctx} raw={raw} params={null} issues={parsed.issues} reviews={[]} total={0} nextCursor={null} />;
    return { status: 400, html: renderDocument(page) };
  }
  const result = ctx.snapshot.index.search(parsed.value);
  // The page links with the query's own parameters, not the decoded cursor key.
  const { after: _after, ...params } = parsed.value;
  const reviews = result.positions.map((p) => ctx.view.reviews[p]!);
  return ok(
    renderDocument(
      <ReviewsListPage
        ctx={ctx}
        raw={raw}
        params={params}
        issues={[]}
        reviews={reviews}
        total={result.total}
        nextCursor={result.next_cursor}
      />,
    ),
  );
}

const MENTION_KEY = { technicians: 'technicians', services: 'services', areas: 'service_areas' } as const;

function catalogEntry(ctx: SiteContext, kind: CatalogKind, id: string): CatalogEntry | null {
  const b = ctx.view.business;
  if (kind === 'technicians') {
    const t = b.technicians.find((x) => x.id === id);
    return t ? { kind, id, name: t.name, detail: t.role } : null;
  }
  if (kind === 'services') {
    const s = b.services.find((x) => x.id === id);
    return s ? { kind, id, name: s.name, detail: s.description } : null;
  }
  const a = b.service_areas.find((x) => x.id === id);
  return a ? { kind, id, name: a.name, detail: null } : null;
}

export function renderCatalog(ctx: SiteContext, kind: CatalogKind, id: string): PageResult {
  const entry = catalogEntry(ctx, kind, id);
  if (!entry) return renderNotFound(ctx, kind === 'areas' ? 'service area' : kind.slice(0, -1));
  const key = MENTION_KEY[kind];
  const reviews: Review[] = ctx.view.reviews.filter((r) => r.mentions[key].some((m) => m.id === id));
  const insight = ctx.insights?.entities[key].find((e) => e.id === id) ?? null;
  return ok(renderDocument(<CatalogPage ctx={ctx} entry={entry} reviews={reviews} insight={insight} />));
}

/** The embed's `limit`: 1 to EMBED_MAX, the default for anything else (a page, not an API). */
export function embedLimit(value: unknown): number {
  const n = typeof value === 'string' && /^\d{1,3}$/.test(value) ? Number(value) : EMBED_DEFAULT;
  return n >= 1 && n <= EMBED_MAX ? n : EMBED_DEFAULT;
}

export function renderEmbed(ctx: SiteContext, limit: number): PageResult {
  return ok(renderDocument(<EmbedPage ctx={ctx} limit={limit} urls={ctx.view.urls} />));
}

export function renderDocs(ctx: SiteContext): PageResult {
  return ok(renderDocument(<DocsPage urls={ctx.view.urls} businessName={ctx.view.business.name} />));
}

/** GET / for a client that asks for JSON: where everything is, with the headline numbers. */
export function homeIndexJson(ctx: SiteContext): string {
  const { business, aggregate, urls: u } = ctx.view;
  return JSON.stringify({
    name: business.name,
    description: business.description,
    aggregate_rating: aggregate,
    updated_at: ctx.view.updatedAt,
    links: {
      self: `${u.base}/`,
      reviews_page: `${u.base}/reviews`,
      reviews_json: u.reviewsJson,
      insights_json: u.insightsJson,
      search: u.search,
      since: u.since,
      review: `${u.base}/api/reviews/{id}`,
      feed_json: u.feedJson,
      feed_xml: u.feedXml,
      hub: u.hub,
      mcp: u.mcp,
      openapi: u.openapi,
      docs: `${u.base}/docs`,
      widget: `${u.base}/widget.js`,
      embed: `${u.base}/embed`,
      llms_txt: `${u.base}/llms.txt`,
      sitemap: `${u.base}/sitemap.xml`,
    },
  });
}

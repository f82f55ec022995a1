import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { JSON_MEDIA_TYPE } from '../../domain/media-types.js';
import type { ServiceUrls } from '../../domain/urls.js';
import { ASSET_PATHS, createSiteAssets } from '../../site/assets.js';
import { DOCS_CSP, EMBED_CSP, PAGE_CSP } from '../../site/csp.js';
import { llmsTxt, robotsTxt } from '../../site/discovery.js';
import type * as Sitemap from '../../site/sitemap.js';
import { HTML_MEDIA_TYPE } from '../../site/html.js';
import {
  embedLimit,
  homeIndexJson,
  renderCatalog,
  renderDocs,
  renderEmbed,
  renderHome,
  renderReview,
  renderReviewsList,
  type PageResult,
} from '../../site/pages.js';
import { siteContext, type SiteContext } from '../../site/site-context.js';
import { createRepresentation, type Representation } from '../../snapshot/rendered-document.js';
import { memoBucket } from '../../snapshot/snapshot-memo.js';
import { completeSnapshot, type SnapshotSource } from '../../snapshot/snapshot.js';
import type { SendPrepared } from '../fast-path.js';
import { parseWeightedList } from '../negotiation.js';
import { prepareRepresentation, type PreparedRepresentation, type ResponseFrame } from '../representation.js';
import { rejectOtherMethods } from './methods.js';

interface Deps {
  snapshots: SnapshotSource;
  urls: ServiceUrls;
  send: SendPrepared;
}

type Build = (ctx: SiteContext) => { rep: Representation; status: number };

/**
 * The pages of a snapshot, prepared (every answer: 200, 304, each coding) and kept in its memo within
 * PAGE_CACHE_BYTES: a new snapshot starts empty, so pages follow the data. They read the insights, so
 * a copy of the snapshot with newer ones starts empty too. /reviews takes arbitrary filters: a listing
 * is kept from its second request on, so one-off filters do not push out the pages asked again and again.
 */
export const PAGES = memoBucket<PreparedRepresentation>('pages', 'prepared pages');

const NOSNIFF = ['x-content-type-options', 'nosniff'];
/** A page's headers before the caching ones: its CSP (contract §7), then what every page sends. */
const pageHeaders = (csp: string) => ['content-security-policy', csp, 'referrer-policy', 'strict-origin-when-cross-origin', ...NOSNIFF];

/**
 * The public face (contract §7): pages, discovery documents and the widget. Everything is rendered
 * from the current snapshot once and kept with it, then served like the JSON documents: strong ETags
 * from the bytes, Last-Modified, 304, compression.
 */
export function registerSiteRoutes(app: FastifyInstance, deps: Deps): void {
  const hidden = { schema: { hide: true } };
  const assets = createSiteAssets(deps.urls);

  /** Serves a snapshot-derived representation; only 200s are kept and answer conditionally. */
  const serve = async (
    request: FastifyRequest,
    reply: FastifyReply,
    key: string,
    build: Build,
    frame: ResponseFrame,
    listing = false,
  ): Promise<FastifyReply> => {
    // Every published snapshot holds its documents; only a cold start waits for its first insights.
    const snapshot = await completeSnapshot(deps.snapshots);
    const pages = snapshot.memo.bucket(PAGES);
    let prepared = pages.peek(key);
    if (!prepared) {
      const ctx = siteContext(snapshot);
      const out = build(ctx);
      if (out.status !== 200) {
        for (let i = 0; i + 1 < (frame.leading ?? []).length; i += 2) reply.header(frame.leading![i]!, frame.leading![i + 1]!);
        return reply.code(out.status).type(out.rep.contentType).send(out.rep.body);
      }
      const fresh = prepareRepresentation(out.rep, frame, () => pages.put(key, fresh));
      // Not kept while the snapshot has no insights at all (a cold start, or a failed first render).
      if (ctx.complete && (!listing || pages.askedBefore(key))) pages.put(key, fresh);
      prepared = fresh;
    }
    return deps.send(request, reply, await prepared.answer(request.raw));
  };
  const page =
    (render: (ctx: SiteContext) => PageResult): Build =>
    (ctx) => {
      const out = render(ctx);
      return { status: out.status, rep: publishedRepresentation(ctx, out.html, HTML_MEDIA_TYPE) };
    };
  const text =
    (contentType: string, render: (ctx: SiteContext) => string | null): Build =>
    (ctx) => {
      const body = render(ctx);
      return {
        status: body === null ? 404 : 200,
        rep: publishedRepresentation(ctx, body ?? 'Not found\n', body === null ? 'text/plain; charset=utf-8' : contentType),
      };
    };
  const route = (url: string, handler: (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply>) => {
    app.get(url, hidden, handler);
    rejectOtherMethods(app, url);
  };

  const pageFrame = (csp: string): ResponseFrame => ({ leading: pageHeaders(csp), vary: 'Accept-Encoding' });
  const textFrame: ResponseFrame = { leading: NOSNIFF, vary: 'Accept-Encoding' };
  route('/', (request, reply) => {
    // Contract §7: JSON for a client that asks for it and not for HTML; a browser gets the page.
    const vary = 'Accept, Accept-Encoding';
    if (wantsJson(request.headers.accept)) {
      return serve(
        request,
        reply,
        'index.json',
        (ctx) => ({ status: 200, rep: publishedRepresentation(ctx, homeIndexJson(ctx), JSON_MEDIA_TYPE) }),
        { leading: NOSNIFF, vary },
      );
    }
    return serve(request, reply, 'home', page(renderHome), { leading: pageHeaders(PAGE_CSP), vary });
  });
  route('/reviews', (request, reply) => {
    const query = request.query as Record<string, unknown>;
    const key = `reviews?${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)])).toString()}`;
    return serve(
      request,
      reply,
      key,
      page((ctx) => renderReviewsList(ctx, query)),
      pageFrame(PAGE_CSP),
      true,
    );
  });
  route('/reviews/:id', (request, reply) => {
    const { id } = request.params as { id: string };
    return serve(
      request,
      reply,
      `review:${id}`,
      page((ctx) => renderReview(ctx, id)),
      pageFrame(PAGE_CSP),
    );
  });
  for (const kind of ['technicians', 'services', 'areas'] as const) {
    route(`/${kind}/:id`, (request, reply) => {
      const { id } = request.params as { id: string };
      return serve(
        request,
        reply,
        `${kind}:${id}`,
        page((ctx) => renderCatalog(ctx, kind, id)),
        pageFrame(PAGE_CSP),
      );
    });
  }
  route('/embed', (request, reply) => {
    const limit = embedLimit((request.query as Record<string, unknown>).limit);
    return serve(
      request,
      reply,
      `embed:${limit}`,
      page((ctx) => renderEmbed(ctx, limit)),
      pageFrame(EMBED_CSP),
    );
  });
  route('/docs', (request, reply) => serve(request, reply, 'docs', page(renderDocs), pageFrame(DOCS_CSP)));
  route('/llms.txt', (request, reply) =>
    serve(
      request,
      reply,
      'llms.txt',
      text('text/plain; charset=utf-8', (ctx) => llmsTxt(ctx.view, ctx.insights)),
      textFrame,
    ),
  );
  route('/robots.txt', (request, reply) =>
    serve(
      request,
      reply,
      'robots.txt',
      text('text/plain; charset=utf-8', (ctx) => robotsTxt(ctx.view)),
      textFrame,
    ),
  );
  // The sitemap's XML writer loads with the first sitemap request, not at start (start-up time).
  let sitemaps: Promise<typeof Sitemap> | null = null;
  route('/sitemap.xml', async (request, reply) => {
    const { sitemapXml } = await (sitemaps ??= import('../../site/sitemap.js'));
    return serve(
      request,
      reply,
      'sitemap.xml',
      text('application/xml; charset=utf-8', (ctx) => sitemapXml(ctx.view)),
      textFrame,
    );
  });
  route('/sitemaps/:part', async (request, reply) => {
    const { part } = request.params as { part: string };
    const n = /^\d+\.xml$/.test(part) ? Number(part.slice(0, -4)) : 0;
    const { sitemapPart } = await (sitemaps ??= import('../../site/sitemap.js'));
    return serve(
      request,
      reply,
      `sitemap:${n}`,
      text('application/xml; charset=utf-8', (ctx) => sitemapPart(ctx.view, n)),
      textFrame,
    );
  });

  // Static files: prepared once per app, on first request.
  const statics = new Map<string, PreparedRepresentation>();
  const serveStatic = async (
    request: FastifyRequest,
    reply: FastifyReply,
    url: string,
    load: () => Representation,
    frame: ResponseFrame,
  ) => {
    let prepared = statics.get(url);
    if (!prepared) statics.set(url, (prepared = prepareRepresentation(load(), frame)));
    return deps.send(request, reply, await prepared.answer(request.raw));
  };
  route('/widget.js', (request, reply) => serveStatic(request, reply, '/widget.js', assets.widget, { vary: 'Accept-Encoding' }));
  for (const url of ASSET_PATHS) route(url, (request, reply) => serveStatic(request, reply, url, () => assets.asset(url)!, textFrame));
}

/**
 * A page of a snapshot, dated like every answer computed from it: Last-Modified is the snapshot's
 * publication time (never earlier than the previous one's, never in the future: snapshot.ts), not a
 * record's `updated_at`, which goes back when a review is hidden and forward with a date in 2099.
 */
function publishedRepresentation(ctx: SiteContext, body: string, contentType: string): Representation {
  return createRepresentation(body, contentType, ctx.snapshot.publishedAt, ctx.snapshot.publishedWeak);
}

/** True when Accept admits application/json and does not name text/html (RFC 9110 §12.5.1). */
export function wantsJson(accept: string | undefined): boolean {
  const ranges = parseWeightedList(accept);
  const admits = (type: string) => ranges.some((r) => r.value === type && r.q > 0);
  return admits('application/json') && !admits('text/html');
}

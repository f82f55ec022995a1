import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { JSON_MEDIA_TYPE } from '../../domain/media-types.js';
import type { ServiceUrls } from '../../domain/urls.js';
import { ASSET_PATHS, siteAsset, widgetScript } from '../../site/assets.js';
import { DOCS_CSP, EMBED_CSP, PAGE_CSP } from '../../site/csp.js';
import { llmsTxt, robotsTxt } from '../../site/discovery.js';
import type * as Sitemap from '../../site/sitemap.js';
import { HTML_MEDIA_TYPE } from '../../site/html.js';
import { cachedPage, type CacheBucket } from '../../site/page-cache.js';
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
import { completeSnapshot, type SnapshotSource } from '../../snapshot/snapshot.js';
import { parseWeightedList } from '../negotiation.js';
import { sendRepresentation } from '../representation.js';
import { rejectOtherMethods } from './methods.js';

interface Deps {
  snapshots: SnapshotSource;
  urls: ServiceUrls;
}

type Build = (ctx: SiteContext) => { rep: Representation; status: number };

/**
 * The public face (contract §7): pages, discovery documents and the widget. Everything is rendered
 * from the current snapshot once and kept with it (site/page-cache.ts), then served like the JSON
 * documents: strong ETags from the bytes, Last-Modified, 304, compression.
 */
export function registerSiteRoutes(app: FastifyInstance, deps: Deps): void {
  const hidden = { schema: { hide: true } };

  /** Serves a snapshot-derived representation; only 200s are cached and answer conditionally. */
  const serve = async (request: FastifyRequest, reply: FastifyReply, key: string, build: Build, csp?: string, bucket?: CacheBucket) => {
    // Every published snapshot holds its documents; only a cold start waits for its first insights.
    const snapshot = await completeSnapshot(deps.snapshots);
    let status = 200;
    const rep = await cachedPage(
      snapshot,
      key,
      async () => {
        const ctx = siteContext(snapshot);
        const out = build(ctx);
        status = out.status;
        return { rep: out.rep, cacheable: out.status === 200 && ctx.complete };
      },
      bucket,
    );
    if (csp) {
      reply.header('Content-Security-Policy', csp);
      reply.header('Referrer-Policy', 'strict-origin-when-cross-origin');
    }
    reply.header('X-Content-Type-Options', 'nosniff');
    if (status !== 200) return reply.code(status).type(rep.contentType).send(rep.body);
    return sendRepresentation(request, reply, rep);
  };
  const page =
    (render: (ctx: SiteContext) => PageResult): Build =>
    (ctx) => {
      const out = render(ctx);
      return { status: out.status, rep: createRepresentation(out.html, HTML_MEDIA_TYPE, Date.parse(ctx.view.updatedAt)) };
    };
  const text =
    (contentType: string, render: (ctx: SiteContext) => string | null): Build =>
    (ctx) => {
      const body = render(ctx);
      return {
        status: body === null ? 404 : 200,
        rep: createRepresentation(
          body ?? 'Not found\n',
          body === null ? 'text/plain; charset=utf-8' : contentType,
          Date.parse(ctx.view.updatedAt),
        ),
      };
    };
  const route = (url: string, handler: (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply>) => {
    app.get(url, hidden, handler);
    rejectOtherMethods(app, url);
  };

  route('/', (request, reply) => {
    // Contract §7: JSON for a client that asks for it and not for HTML; a browser gets the page.
    reply.header('Vary', 'Accept, Accept-Encoding');
    if (wantsJson(request.headers.accept)) {
      return serve(request, reply, 'index.json', (ctx) => ({
        status: 200,
        rep: createRepresentation(homeIndexJson(ctx), JSON_MEDIA_TYPE, Date.parse(ctx.view.updatedAt)),
      }));
    }
    return serve(request, reply, 'home', page(renderHome), PAGE_CSP);
  });
  route('/reviews', (request, reply) => {
    const query = request.query as Record<string, unknown>;
    const key = `reviews?${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)])).toString()}`;
    return serve(
      request,
      reply,
      key,
      page((ctx) => renderReviewsList(ctx, query)),
      PAGE_CSP,
      'listings',
    );
  });
  route('/reviews/:id', (request, reply) => {
    const { id } = request.params as { id: string };
    return serve(
      request,
      reply,
      `review:${id}`,
      page((ctx) => renderReview(ctx, id)),
      PAGE_CSP,
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
        PAGE_CSP,
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
      EMBED_CSP,
    );
  });
  route('/docs', (request, reply) => serve(request, reply, 'docs', page(renderDocs), DOCS_CSP));
  route('/llms.txt', (request, reply) =>
    serve(
      request,
      reply,
      'llms.txt',
      text('text/plain; charset=utf-8', (ctx) => llmsTxt(ctx.view, ctx.insights)),
    ),
  );
  route('/robots.txt', (request, reply) =>
    serve(
      request,
      reply,
      'robots.txt',
      text('text/plain; charset=utf-8', (ctx) => robotsTxt(ctx.view)),
    ),
  );
  // The sitemap's XML writer loads with the first sitemap request (issue 15, start-up).
  let sitemaps: Promise<typeof Sitemap> | null = null;
  route('/sitemap.xml', async (request, reply) => {
    const { sitemapXml } = await (sitemaps ??= import('../../site/sitemap.js'));
    return serve(
      request,
      reply,
      'sitemap.xml',
      text('application/xml; charset=utf-8', (ctx) => sitemapXml(ctx.view)),
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
    );
  });

  route('/widget.js', (request, reply) => sendRepresentation(request, reply, widgetScript(deps.urls)));
  for (const url of ASSET_PATHS) {
    route(url, (request, reply) => {
      reply.header('X-Content-Type-Options', 'nosniff');
      return sendRepresentation(request, reply, siteAsset(url)!);
    });
  }
}

/** True when Accept admits application/json and does not name text/html (RFC 9110 §12.5.1). */
export function wantsJson(accept: string | undefined): boolean {
  const ranges = parseWeightedList(accept);
  const admits = (type: string) => ranges.some((r) => r.value === type && r.q > 0);
  return admits('application/json') && !admits('text/html');
}

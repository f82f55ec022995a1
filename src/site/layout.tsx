import type { ComponentChildren } from 'preact';
import type { ServiceUrls } from '../domain/urls.js';
import { jsonForScript } from './html.js';
import { NoticeBanner, type SiteNotice } from './notice.js';

interface Props {
  urls: ServiceUrls;
  businessName: string;
  title: string;
  description: string;
  /** The page's absolute URL. */
  canonical: string;
  /** schema.org JSON-LD for the page, if any. */
  jsonLd?: unknown;
  /** The JSON twin of this page, announced as rel=alternate. */
  json?: { href: string; title: string };
  /** Pages that only exist as a list filter are not worth indexing. */
  noindex?: boolean;
  /** Demo or sample data: said on every page (`notice.tsx`). */
  notice?: SiteNotice;
  children: ComponentChildren;
}

/** The page frame: landmarks, skip link, the site's navigation, machine-readable alternates. */
export function Layout(p: Props) {
  const u = p.urls;
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{p.title}</title>
        <meta name="description" content={p.description} />
        {p.noindex ? <meta name="robots" content="noindex, follow" /> : null}
        <link rel="canonical" href={p.canonical} />
        <link rel="stylesheet" href={`${u.base}/assets/site.css`} />
        <link rel="icon" type="image/svg+xml" href={`${u.base}/favicon.svg`} />
        <link rel="alternate" type="application/atom+xml" title={`${p.businessName} reviews (Atom)`} href={u.feedXml} />
        <link rel="alternate" type="application/feed+json" title={`${p.businessName} reviews (JSON Feed)`} href={u.feedJson} />
        {p.json ? <link rel="alternate" type="application/json" title={p.json.title} href={p.json.href} /> : null}
        {p.jsonLd ? <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: jsonForScript(p.jsonLd) }} /> : null}
      </head>
      <body>
        <a class="skip-link" href="#main">
          Skip to content
        </a>
        <header class="site-header">
          <div class="wrap header-row">
            <a class="brand" href={`${u.base}/`}>
              {p.businessName}
            </a>
            <nav aria-label="Main">
              <ul class="nav">
                <li>
                  <a href={`${u.base}/`}>Overview</a>
                </li>
                <li>
                  <a href={`${u.base}/reviews`}>All reviews</a>
                </li>
                <li>
                  <a href={`${u.base}/docs`}>API</a>
                </li>
              </ul>
            </nav>
          </div>
        </header>
        <NoticeBanner notice={p.notice} businessName={p.businessName} />
        <main id="main" class="wrap">
          {p.children}
        </main>
        <footer class="site-footer">
          <div class="wrap">
            <p>
              Verified customer reviews of {p.businessName}, published as the customers wrote them, with the owner's replies. The same data
              is open to any program:
            </p>
            <nav aria-label="Data and feeds">
              <ul class="footer-links">
                <li>
                  <a href={u.reviewsJson}>reviews.json</a>
                </li>
                <li>
                  <a href={u.insightsJson}>insights.json</a>
                </li>
                <li>
                  <a href={u.feedXml}>Atom feed</a>
                </li>
                <li>
                  <a href={u.feedJson}>JSON Feed</a>
                </li>
                <li>
                  <a href={u.mcp}>MCP endpoint</a>
                </li>
                <li>
                  <a href={`${u.base}/docs`}>API reference</a>
                </li>
                <li>
                  <a href={u.openapi}>OpenAPI</a>
                </li>
                <li>
                  <a href={`${u.base}/llms.txt`}>llms.txt</a>
                </li>
              </ul>
            </nav>
          </div>
        </footer>
      </body>
    </html>
  );
}

import { Layout } from '../layout.js';
import type { SiteContext } from '../site-context.js';

/** The HTML 404 of the site's paths: says nothing about what was asked for. */
export function NotFoundPage({ ctx, what }: { ctx: SiteContext; what: string }) {
  const { business, urls } = ctx.view;
  return (
    <Layout
      urls={urls}
      businessName={business.name}
      notice={ctx.notice}
      title={`Not found · ${business.name}`}
      description="Page not found."
      canonical={`${urls.base}/`}
      noindex
    >
      <h1>Not found</h1>
      <p>There is no such {what} here.</p>
      <p>
        <a href={`${urls.base}/reviews`}>See all reviews</a> or go back to <a href={`${urls.base}/`}>{business.name}</a>.
      </p>
    </Layout>
  );
}

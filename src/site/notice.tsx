import type { PublishedView } from '../domain/published-view.js';
import { plural } from './format.js';

/** What a page says about invented data: the bundled demo, or sample reviews beside the business's own. */
export interface SiteNotice {
  demo: boolean;
  samples: number;
}

/** The notice of a published view (site-context.ts keeps it once per snapshot, in its memo). */
export function siteNotice(view: PublishedView): SiteNotice {
  return { demo: view.business.demo === true, samples: view.sampleReviews };
}

/**
 * The banner on every page while the data is invented, so nobody takes the demo (or the README's sample
 * reviews) for a real business's reviews, and the owner sees how to replace it.
 */
export function NoticeBanner({ notice, businessName }: { notice: SiteNotice | undefined; businessName: string }) {
  if (!notice || (!notice.demo && notice.samples === 0)) return null;
  return (
    <aside class="demo-notice" aria-label={notice.demo ? 'Demo data' : 'Sample reviews'}>
      <div class="wrap">
        {notice.demo ? (
          <p>
            <strong>Demo.</strong> {businessName} is an invented business and its reviews are made up, to show what this service publishes.
            To publish your own reviews, run <code>npx review-data init</code>, then import your reviews: the demo steps aside.
          </p>
        ) : (
          <p>
            <strong>Sample reviews.</strong> {plural(notice.samples, 'review')} marked &ldquo;sample&rdquo; come from the project&rsquo;s
            example spreadsheet and are invented. Importing your own reviews removes them.
          </p>
        )}
      </div>
    </aside>
  );
}

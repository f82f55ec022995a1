/** Every absolute URL the service prints, derived from BASE_URL (contract §1). */
export interface ServiceUrls {
  base: string;
  reviewsJson: string;
  insightsJson: string;
  feedJson: string;
  feedXml: string;
  search: string;
  since: string;
  openapi: string;
  mcp: string;
  hub: string;
  /** The permalink of one review: GET /api/reviews/{id} (contract §4). */
  review(id: string): string;
  /** The HTML page of one review: GET /reviews/{id} (contract §7); the feeds' item links. */
  reviewPage(id: string): string;
}

export function createServiceUrls(baseUrl: string): ServiceUrls {
  const base = baseUrl.replace(/\/+$/, '');
  return {
    base,
    reviewsJson: `${base}/reviews.json`,
    insightsJson: `${base}/insights.json`,
    feedJson: `${base}/api/feed.json`,
    feedXml: `${base}/feed.xml`,
    search: `${base}/api/reviews/search`,
    since: `${base}/api/reviews/since/{date}`,
    openapi: `${base}/.well-known/openapi.json`,
    mcp: `${base}/mcp`,
    hub: `${base}/api/websub/hub`,
    review: (id) => `${base}/api/reviews/${encodeURIComponent(id)}`,
    reviewPage: (id) => `${base}/reviews/${encodeURIComponent(id)}`,
  };
}

/**
 * A request URL as logs show it: the value of a `token` query parameter (the Pub/Sub push endpoint's
 * shared secret, contract §3.2) is masked, however its name is spelled (`%74oken` is `token` to the query
 * parser), so no log line carries a secret.
 */
export function loggedUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const decoded = (s: string) => {
    try {
      return decodeURIComponent(s.replace(/\+/g, ' '));
    } catch {
      return s;
    }
  };
  const query = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = eq < 0 ? pair : pair.slice(0, eq);
      return decoded(name).trim().toLowerCase() === 'token' ? `${name}=***` : pair;
    });
  return `${url.slice(0, q)}?${query.join('&')}`;
}

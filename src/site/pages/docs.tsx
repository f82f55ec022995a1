import type { ServiceUrls } from '../../domain/urls.js';

/**
 * GET /docs: the API reference, rendered in the browser by swagger-ui from /.well-known/openapi.json.
 * Its script and stylesheet come from this origin (the swagger-ui-dist package), never a CDN.
 */
export function DocsPage({ urls, businessName }: { urls: ServiceUrls; businessName: string }) {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{`API reference · ${businessName} reviews`}</title>
        <link rel="stylesheet" href={`${urls.base}/docs/assets/swagger-ui.css`} />
        <link rel="icon" type="image/svg+xml" href={`${urls.base}/favicon.svg`} />
        <link rel="alternate" type="application/json" title="OpenAPI 3.1 description" href={urls.openapi} />
      </head>
      <body>
        <main>
          <div id="swagger-ui">
            <noscript>
              <h1>API reference</h1>
              <p>
                The interactive reference needs JavaScript. The API is described by its OpenAPI document:{' '}
                <a href={urls.openapi}>{urls.openapi}</a>.
              </p>
            </noscript>
          </div>
        </main>
        <script src={`${urls.base}/docs/assets/swagger-ui-bundle.js`} />
        <script src={`${urls.base}/docs/assets/init.js`} data-openapi={urls.openapi} />
      </body>
    </html>
  );
}

/**
 * Content-Security-Policy of every page (contract §7; CSP Level 3). Pages run no script and load only
 * same-origin CSS and images, so everything else is 'none'. JSON-LD blocks are data, not scripts, and
 * are unaffected by script-src.
 */
const PAGE_DIRECTIVES = [
  "default-src 'none'",
  "script-src 'none'",
  "style-src 'self'",
  "img-src 'self' data:",
  "form-action 'self'",
  "base-uri 'none'",
];

/** Ordinary pages may not be framed (clickjacking); /embed exists to be framed by any site. */
export const PAGE_CSP = [...PAGE_DIRECTIVES, "frame-ancestors 'none'"].join('; ');
export const EMBED_CSP = [...PAGE_DIRECTIVES, 'frame-ancestors *'].join('; ');

/**
 * /docs runs the OpenAPI renderer from this origin. swagger-ui sets inline style attributes (React),
 * and fetches the OpenAPI document from this origin.
 */
export const DOCS_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

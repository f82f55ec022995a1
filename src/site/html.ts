import type { VNode } from 'preact';
import { renderToString } from 'preact-render-to-string';

/**
 * Pages are preact elements rendered to a string on the server: preact escapes every text child and
 * attribute value by default, so review text can never become markup. The only raw insertion is
 * `jsonForScript` below, for JSON-LD data blocks.
 */
export function renderDocument(page: VNode): string {
  return `<!doctype html>\n${renderToString(page)}`;
}

export const HTML_MEDIA_TYPE = 'text/html; charset=utf-8';

/**
 * JSON for a `<script type="application/ld+json">` data block: `<`, `>` and `&` as JSON escapes, so no
 * review text can close the element or open a comment (HTML §4.12.1.3 restrictions for script content);
 * U+2028/2029 escaped for old JSON-in-JS parsers. JSON.parse gives back the exact strings.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

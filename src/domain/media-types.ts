/**
 * The JSON media type of every JSON response and document the service serves (contract §4). The feeds
 * own theirs (feeds/json-feed.ts, feeds/atom.ts); MCP answers use its transport's bare `application/json`.
 */
export const JSON_MEDIA_TYPE = 'application/json; charset=utf-8';

/** The bare JSON type: MCP answers (as the SDK sends them), MCP resource types and OpenAPI content keys. */
export const BARE_JSON_MEDIA_TYPE = 'application/json';

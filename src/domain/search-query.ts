import { decodeCursor, type CursorKey } from './cursor.js';
import type { ParseResult, SearchParams } from './search-params.js';

/** Validated search parameters with the cursor decoded: what the search index runs. */
export type SearchQuery = SearchParams & {
  /** The key after which the page starts (the decoded `cursor`). */
  after?: CursorKey;
};

/**
 * The last step of validating a search at the edge (REST query string and MCP arguments alike): the
 * cursor must be a next_cursor issued for this sort. Run once the other parameters are valid, so the
 * index below never sees an invalid request.
 */
export function withDecodedCursor(parsed: ParseResult<SearchParams>): ParseResult<SearchQuery> {
  if (!parsed.ok || parsed.value.cursor === undefined) return parsed;
  const after = decodeCursor(parsed.value.cursor, parsed.value.sort ?? 'newest');
  if (after) return { ok: true, value: { ...parsed.value, after } };
  return {
    ok: false,
    issues: [
      { path: ['cursor'], code: 'invalid_cursor', message: 'cursor is not a next_cursor issued for this sort; start again without it' },
    ],
  };
}

import { z } from 'zod';
import { DateSchema, TimestampSchema } from './dates.js';
import { SORTS, type Sort } from './search-params.js';

/**
 * A cursor names the last review of a page by its sort key, not by position, so paging stays
 * correct when reviews are added between two requests. It is opaque to clients (base64url JSON).
 */
const CursorSchema = z.strictObject({
  v: z.literal(1),
  s: z.enum(SORTS),
  d: DateSchema,
  r: z.int().min(1).max(5),
  u: TimestampSchema,
  i: z.string().min(1),
});
export type CursorKey = { date: string; rating: number; updated_at: string; id: string };

export function encodeCursor(sort: Sort, last: CursorKey): string {
  const payload = { v: 1, s: sort, d: last.date, r: last.rating, u: last.updated_at, i: last.id };
  return Buffer.from(JSON.stringify(payload), 'utf8').toString('base64url');
}

/** The key after which the next page starts, or null when the cursor is not one we issued for `sort`. */
export function decodeCursor(cursor: string, sort: Sort): CursorKey | null {
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) return null;
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  const parsed = CursorSchema.safeParse(json);
  if (!parsed.success || parsed.data.s !== sort) return null;
  const c = parsed.data;
  return { date: c.d, rating: c.r, updated_at: c.u, id: c.i };
}

import { isCalendarDate } from '../domain/dates.js';

/**
 * The values people write in spreadsheets (contract §3.1), parsed by hand: each form is one regular
 * expression, and a date library would add nothing a per-file day/month decision needs.
 */
export type Parsed<T> = { ok: true; value: T } | { ok: false; message: string };

const ok = <T>(value: T): Parsed<T> => ({ ok: true, value });
const fail = (message: string): Parsed<never> => ({ ok: false, message });

export const STAR_WORDS: Readonly<Record<string, number>> = { ONE: 1, TWO: 2, THREE: 3, FOUR: 4, FIVE: 5 };

/** `5`, `5.0`, `5 stars`, `1 star`, `5/5`, `FIVE`, `★★★★★` (`☆` pads) → 5. Half stars and 0 or 6 are errors. */
export function parseRating(raw: string): Parsed<number> {
  const s = raw.trim();
  const word = STAR_WORDS[s.toUpperCase()];
  if (word !== undefined) return ok(word);
  let n: number | undefined;
  if (/^[★☆]+$/u.test(s) && s.includes('★')) n = [...s].filter((c) => c === '★').length;
  const num = /^(\d+(?:[.,]\d+)?)\s*(?:stars?|\/\s*5(?:[.,]0+)?)?$/i.exec(s);
  if (num) n = Number(num[1]!.replace(',', '.'));
  if (n === undefined) return fail(`"${raw}" is not a rating (write 1 to 5: 5, 5 stars, 5/5, FIVE or ★★★★★)`);
  if (!Number.isInteger(n)) return fail(`"${raw}" is not a whole number of stars (ratings are 1 to 5, no half stars)`);
  if (n < 1 || n > 5) return fail(`"${raw}" is out of range (ratings are 1 to 5 stars)`);
  return ok(n);
}

export type DateOrder = 'MDY' | 'DMY' | 'YMD';
export const DATE_ORDERS: readonly DateOrder[] = ['MDY', 'DMY', 'YMD'];

// An optional time after a day/month date, as spreadsheets export it: "3/25/2024 14:05", "3/25/2024 2:05 PM".
const TIME = String.raw`(?:[ T]+\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:\s*[AP]M)?)?`;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
// RFC 3339, and the timestamps platforms write beside it: no seconds, no offset (Yelp's
// "2024-03-25 19:32:11", the business's local time), or an offset without its colon (Facebook's "+0000").
const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?\s*([Zz]|[+-]\d{2}(?::?\d{2})?)?$/;
const NUMERIC = new RegExp(String.raw`^(\d{1,4})[/.\-](\d{1,2})[/.\-](\d{1,4})${TIME}$`, 'i');

const pad = (n: number) => String(n).padStart(2, '0');

function ymd(y: number, m: number, d: number, raw: string): Parsed<string> {
  const date = `${String(y).padStart(4, '0')}-${pad(m)}-${pad(d)}`;
  return isCalendarDate(date) ? ok(date) : fail(`"${raw}" is not a real calendar date`);
}

/** The two leading fields of a day/month date (`3/25/2024` → [3, 25]), or null for any other form. */
export function dayMonthFields(raw: string): [number, number] | null {
  const m = NUMERIC.exec(raw.trim());
  if (!m || m[1]!.length > 2 || m[3]!.length !== 4) return null;
  return [Number(m[1]), Number(m[2])];
}

/**
 * Decides a file's day/month order from all its date cells (contract §3.1): `D/M/YYYY` when some
 * first field exceeds 12, `M/D/YYYY` when some second field does. Both at once is a contradiction;
 * neither leaves the file undecidable, unless every such date reads the same both ways (`1/1/2024`).
 */
export function detectDateOrder(
  values: readonly string[],
): { order: DateOrder } | { undecidable: string[] } | { conflict: [string, string] } {
  let dayFirst: string | undefined;
  let monthFirst: string | undefined;
  const ambiguous: string[] = [];
  for (const v of values) {
    const f = dayMonthFields(v);
    if (!f) continue;
    if (f[0] > 12) dayFirst ??= v;
    else if (f[1] > 12) monthFirst ??= v;
    else if (f[0] !== f[1]) ambiguous.push(v);
  }
  if (dayFirst && monthFirst) return { conflict: [dayFirst, monthFirst] };
  if (dayFirst) return { order: 'DMY' };
  if (monthFirst || ambiguous.length === 0) return { order: 'MDY' };
  return { undecidable: ambiguous.slice(0, 3) };
}

/**
 * `YYYY-MM-DD`, a timestamp (its own calendar day as written, the offset being the writer's), `YYYY/M/D`,
 * and `D/M/YYYY` or `M/D/YYYY` by the file's order.
 */
export function parseDate(raw: string, order: DateOrder | undefined): Parsed<string> {
  const s = raw.trim();
  const iso = ISO_DATE.exec(s);
  if (iso) return ymd(Number(iso[1]), Number(iso[2]), Number(iso[3]), raw);
  const ts = TIMESTAMP.exec(s);
  if (ts) {
    const [h, mi, sec] = [Number(ts[4]), Number(ts[5]), Number(ts[6] ?? '0')];
    if (h > 23 || mi > 59 || sec > 60) return fail(`"${raw}" is not a real time of day`);
    return ymd(Number(ts[1]), Number(ts[2]), Number(ts[3]), raw);
  }
  const m = NUMERIC.exec(s);
  if (m) {
    const [a, b, c] = [m[1]!, m[2]!, m[3]!];
    if (a.length === 4) return ymd(Number(a), Number(b), Number(c), raw);
    if (c.length !== 4) return fail(`"${raw}" has no four-digit year (write 3/25/2024 or 2024-03-25)`);
    if (order === 'YMD') return fail(`"${raw}" does not start with the year (--date-format YMD)`);
    if (!order) return fail(`"${raw}" could be day/month or month/day: pass --date-format MDY or DMY`);
    const [d, mo] = order === 'DMY' ? [Number(a), Number(b)] : [Number(b), Number(a)];
    return ymd(Number(c), mo, d, raw);
  }
  return fail(`"${raw}" is not a date (write 2024-03-25, 2024-03-25T14:05:00Z, 3/25/2024 or 25/3/2024)`);
}

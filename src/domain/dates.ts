import { z } from 'zod';

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True when `s` is a real calendar date in YYYY-MM-DD form (2025-02-30 is not). */
export function isCalendarDate(s: string): boolean {
  const m = DATE_RE.exec(s);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (mo < 1 || mo > 12 || d < 1) return false;
  const daysInMonth = new Date(Date.UTC(y, mo, 0)).getUTCDate();
  return d <= daysInMonth;
}

/** A calendar date, YYYY-MM-DD (contract §2). */
export const DateSchema = z
  .string()
  .refine(isCalendarDate, { message: 'must be a real calendar date in YYYY-MM-DD form' })
  .meta({ format: 'date', example: '2024-05-01' });

/** An RFC 3339 timestamp in UTC (contract §2). */
export const TimestampSchema = z.iso.datetime({ offset: false });

import { describe, expect, it } from 'vitest';
import { DateSchema, isCalendarDate } from '../../src/domain/dates.js';

describe('isCalendarDate', () => {
  it.each(['2024-02-29', '2025-12-31', '2000-02-29', '1999-01-01'])('accepts %s', (d) => expect(isCalendarDate(d)).toBe(true));
  it.each([
    '2025-02-29',
    '2025-02-30',
    '1900-02-29',
    '2025-13-01',
    '2025-00-10',
    '2025-04-31',
    '2024-1-1',
    '24-01-01',
    'yesterday',
    '2024-01-01T00:00:00Z',
    '',
  ])('rejects %s', (d) => expect(isCalendarDate(d)).toBe(false));
  it('DateSchema names the rule in its message', () => {
    const r = DateSchema.safeParse('2025-02-30');
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.message).toMatch(/calendar date/);
  });
});

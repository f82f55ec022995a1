/**
 * Entities of a review's tokens: money, durations, clock times, dates, percentages, numbers. The cue
 * rules ("#DURATION late", "quoted #MONEY") and the model's features read them. Recognised here by a
 * handful of token patterns, which is what the engine needs of them, rather than by wink-nlp's
 * entity pipe: that pipe was as much time again as the rest of tokenizing (0.5 ms of 1.1 ms a review),
 * for patterns of the same kind. Types follow wink-nlp's names.
 */

/** A token as the recogniser reads it: its lower-cased normal form and wink's token type. */
export interface EntityToken {
  norm: string;
  type: string;
}

const NUMBER_WORDS = new Set(
  'zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty ninety hundred thousand dozen'.split(
    ' ',
  ),
);
/** Quantities that may open a duration ("a couple of hours", "several days", "half an hour"). */
const QUANTITY_WORDS = new Set(['couple', 'few', 'several', 'half', 'of', '-', 'and', 'a', 'an']);
const UNITS = new Set('minute minutes min mins hour hours hr hrs day days week weeks month months year years decade decades'.split(' '));
/** Calendar units after these words are dates ("the next day", "same week"), not lengths of time. */
const CALENDAR_BEFORE = new Set(['next', 'same', 'last', 'this', 'following', 'that', 'previous', 'every']);
const DAY_PARTS = new Set([
  'morning',
  'mornings',
  'afternoon',
  'afternoons',
  'evening',
  'evenings',
  'night',
  'nights',
  'noon',
  'midnight',
  'tonight',
]);
const DATE_WORDS = new Set(
  [
    'monday tuesday wednesday thursday friday saturday sunday mondays tuesdays wednesdays thursdays fridays saturdays sundays',
    'january february april june july august september october november december jan feb apr jun jul aug sep sept oct nov dec',
    'today tomorrow yesterday weekend weekends winter summer autumn christmas thanksgiving easter',
  ]
    .join(' ')
    .split(' '),
);
/** Months that are also common words ("may", "march"): dates only next to a number or after "in". */
const AMBIGUOUS_MONTHS = new Set(['may', 'march']);
const ORDINAL_WORDS = new Set(['first', 'second', 'third', 'fourth', 'fifth', 'sixth', 'seventh', 'eighth', 'ninth', 'tenth']);
const MERIDIEM = new Set(['am', 'pm', 'a.m.', 'p.m.', 'a.m', 'p.m', "o'clock", 'oclock']);
const CLOCK = /^\d{1,2}:\d\d$/;
const SLASH_DATE = /^\d{1,2}\/\d{1,2}(\/\d{2,4})?$/;
const YEAR = /^(19|20)\d\d$/;

const isNumber = (t: EntityToken | undefined): boolean => t !== undefined && (t.type === 'number' || NUMBER_WORDS.has(t.norm));

/** Tags tokens [from, to) with `type`. */
function tag(out: string[], from: number, to: number, type: string): void {
  for (let i = from; i < to; i++) out[i] = type;
}

/** Money: "$95", "$ 1,200", "200 bucks", "1200 dollars". */
function money(tokens: readonly EntityToken[], i: number, out: string[]): number {
  const t = tokens[i] as EntityToken;
  if (t.type === 'currency' || t.norm.startsWith('$')) {
    const end = isNumber(tokens[i + 1]) ? i + 2 : i + 1;
    tag(out, i, end, 'MONEY');
    return end - i;
  }
  if (isNumber(t) && /^(dollars?|bucks)$/.test(tokens[i + 1]?.norm ?? '')) {
    tag(out, i, i + 2, 'MONEY');
    return 2;
  }
  return 0;
}

/** Percentages: "10%", "ten percent". */
function percent(tokens: readonly EntityToken[], i: number, out: string[]): number {
  if (!isNumber(tokens[i]) || !/^(%|percent)$/.test(tokens[i + 1]?.norm ?? '')) return 0;
  tag(out, i, i + 2, 'PERCENT');
  return 2;
}

/** Clock times and parts of the day: "7am", "8:30 a.m.", "9 o'clock", "the next morning". */
function time(tokens: readonly EntityToken[], i: number, out: string[]): number {
  const t = tokens[i] as EntityToken;
  const clock = t.type === 'time' || CLOCK.test(t.norm) || (isNumber(t) && MERIDIEM.has(tokens[i + 1]?.norm ?? ''));
  if (clock) {
    const end = MERIDIEM.has(tokens[i + 1]?.norm ?? '') ? i + 2 : i + 1;
    tag(out, i, end, 'TIME');
    return end - i;
  }
  if (DAY_PARTS.has(t.norm)) {
    out[i] = 'TIME';
    return 1;
  }
  return 0;
}

/** Dates: weekdays, months, holidays, "6/5/24", years, decades, "the same day", "next Monday". */
function date(tokens: readonly EntityToken[], i: number, out: string[]): number {
  const t = tokens[i] as EntityToken;
  const next = tokens[i + 1];
  const month = AMBIGUOUS_MONTHS.has(t.norm) && (isNumber(next) || tokens[i - 1]?.norm === 'in');
  const calendar = CALENDAR_BEFORE.has(t.norm) && next !== undefined && (UNITS.has(next.norm) || DATE_WORDS.has(next.norm));
  if (calendar) {
    tag(out, i, i + 2, 'DATE');
    return 2;
  }
  const dated =
    DATE_WORDS.has(t.norm) || month || SLASH_DATE.test(t.norm) || t.type === 'decade' || (t.type === 'number' && YEAR.test(t.norm));
  if (!dated) return 0;
  out[i] = 'DATE';
  return 1;
}

/** Lengths of time: "two hours", "a couple of days", "45 minutes", "two-hour", "hours". */
function duration(tokens: readonly EntityToken[], i: number, out: string[]): number {
  if (!UNITS.has((tokens[i] as EntityToken).norm)) return 0;
  let start = i;
  while (start > 0 && (isNumber(tokens[start - 1]) || QUANTITY_WORDS.has(tokens[start - 1]?.norm ?? '')) && out[start - 1] === '') start--;
  // "a", "an", "of" and "and" belong to a duration only inside it ("a couple of hours"), never at its start.
  while (start < i && /^(a|an|of|and|-)$/.test(tokens[start]?.norm ?? '')) start++;
  tag(out, start, i + 1, 'DURATION');
  return 1;
}

/** Numbers that are nothing else: "two", "3", "third". */
function number(t: EntityToken): string {
  if (t.type === 'ordinal' || ORDINAL_WORDS.has(t.norm)) return 'ORDINAL';
  if (isNumber(t)) return 'CARDINAL';
  if (t.type === 'emoji') return 'EMOJI';
  if (t.type === 'emoticon') return 'EMOTICON';
  return '';
}

const RULES = [money, percent, time, date, duration];

/** The entity type of each token ('' for none), in token order. */
export function recognizeEntities(tokens: readonly EntityToken[]): string[] {
  const out = new Array<string>(tokens.length).fill('');
  for (let i = 0; i < tokens.length;) {
    let taken = 0;
    for (const rule of RULES) {
      taken = rule(tokens, i, out);
      if (taken > 0) break;
    }
    i += Math.max(1, taken);
  }
  for (let i = 0; i < tokens.length; i++) if (out[i] === '') out[i] = number(tokens[i] as EntityToken);
  return out;
}

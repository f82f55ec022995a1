import type { Token } from '../nlp/wink.js';

/**
 * Implicit punctuality from clock times: "They said between 12 and 4, and nobody showed up until
 * 6:30", "Had a 9-11 window, he came at 10:15". Finds an appointment window and a later arrival
 * time in one sentence and compares them. Hours without am/pm are read the way people book trades:
 * 1 to 6 are afternoon hours.
 */
const ARRIVAL_WORDS = new Set([
  'arrive',
  'arrived',
  'came',
  'come',
  'show',
  'showed',
  'rolled',
  'pulled',
  'got',
  'until',
  'means',
  'here',
  'there',
  'by',
]);
const PROMISE_WORDS = new Set(['at', 'by', 'for']);
const PROMISE_LEADS = new Set(['supposed', 'scheduled', 'appointment', 'booked', 'promised', 'said', 'told', 'expected']);
const CONNECTORS = new Set(['to', 'and', '-', '–', 'through', 'til', 'till']);
const NAMED: Record<string, number> = { noon: 12, midday: 12, midnight: 24 };

function clock(raw: string): number | undefined {
  // Most words are no time: only a digit or a named time ("noon") can start one.
  const first = raw.charCodeAt(0);
  if (!(first >= 48 && first <= 57) && !/^(noon|midday|midnight)/i.test(raw)) return undefined;
  const s = raw.toLowerCase().replace(/\.$/, '');
  if (s in NAMED) return NAMED[s];
  const m = /^(\d{1,2})(?::(\d{2}))?\s*(am|pm|a\.m|p\.m)?$/.exec(s);
  if (!m) return undefined;
  let h = Number(m[1]);
  const min = m[2] ? Number(m[2]) / 60 : 0;
  if (h > 24 || min >= 1) return undefined;
  const meridian = m[3]?.[0];
  if (meridian === 'p' && h < 12) h += 12;
  else if (meridian === 'a' && h === 12) h = 0;
  else if (!meridian && h >= 1 && h <= 6) h += 12;
  return h + min;
}

function range(raw: string): [number, number] | undefined {
  const first = raw.charCodeAt(0);
  if (!(first >= 48 && first <= 57)) return undefined;
  const m = /^(\d{1,2}(?::\d{2})?(?:am|pm)?)-(\d{1,2}(?::\d{2})?(?:am|pm)?)$/.exec(raw.toLowerCase());
  if (!m?.[1] || !m[2]) return undefined;
  const a = clock(m[1]);
  const b = clock(m[2]);
  return a !== undefined && b !== undefined && b > a ? [a, b] : undefined;
}

/** A window and the token after it. */
interface Window {
  hours: [number, number];
  after: number;
}

/** A clock time written with digits ("10:15", "9am"), not a word that only reads as one. */
const digits = (t: Token | undefined): boolean => /^\d/.test(t?.lower ?? '');

/** A stated window: "9-11" in one token, or "12 to 4", "9 and 11". */
function statedWindow(tokens: readonly Token[], from: number, to: number): Window | undefined {
  for (let i = from; i < to; i++) {
    const t = tokens[i];
    if (!t) continue;
    const r = range(t.lower);
    if (r) return { hours: r, after: i + 1 };
    const a = clock(t.lower);
    const c = tokens[i + 1];
    const b = tokens[i + 2] ? clock(tokens[i + 2]?.lower ?? '') : undefined;
    if (a !== undefined && c && CONNECTORS.has(c.norm) && b !== undefined && b > a && digits(t)) return { hours: [a, b], after: i + 3 };
  }
  return undefined;
}

/** An arrival before the appointment time it names: "here at 7:58 for an 8:00 appointment". */
function againstAppointment(tokens: readonly Token[], from: number, to: number): number | undefined {
  for (let i = from; i < to - 3; i++) {
    const arrived = clock(tokens[i]?.lower ?? '');
    if (arrived === undefined || !digits(tokens[i]) || tokens[i + 1]?.norm !== 'for') continue;
    const k = ['a', 'an'].includes(tokens[i + 2]?.norm ?? '') ? i + 3 : i + 2;
    const booked = clock(tokens[k]?.lower ?? '');
    if (booked === undefined) continue;
    return arrived <= booked + 0.1 ? 2 : -2 - Math.min(2, arrived - booked);
  }
  return undefined;
}

/** A promised single time counts as a narrow window: "supposed to come at 1 ... there at 5". */
function promisedTime(tokens: readonly Token[], from: number, to: number): Window | undefined {
  for (let i = from; i < to - 1; i++) {
    const t = tokens[i];
    const at = tokens[i + 1];
    const h = at ? clock(at.lower) : undefined;
    if (!t || !PROMISE_WORDS.has(t.norm) || h === undefined || !digits(at)) continue;
    for (let k = Math.max(from, i - 4); k < i; k++)
      if (PROMISE_LEADS.has(tokens[k]?.norm ?? '')) return { hours: [h - 0.25, h + 0.25], after: i + 2 };
  }
  return undefined;
}

/** The arrival after a window, against it: an arrival word, then the first time written after the window. */
function arrivalAfter(tokens: readonly Token[], window: Window, to: number): number | undefined {
  let sawArrivalWord = false;
  for (let i = window.after; i < to; i++) {
    const t = tokens[i];
    if (t && (ARRIVAL_WORDS.has(t.norm) || ARRIVAL_WORDS.has(t.lemma))) sawArrivalWord = true;
  }
  if (!sawArrivalWord) return undefined;
  for (let i = window.after; i < to; i++) {
    const t = tokens[i];
    const h = t ? clock(t.lower) : undefined;
    if (!t || h === undefined || !/^\d|noon|midnight/.test(t.lower)) continue;
    const [start, end] = window.hours;
    if (h > end) return -2 - Math.min(2, h - end);
    return h >= start - 0.25 ? 2 : 0;
  }
  return undefined;
}

/** Signed evidence for punctuality (negative: arrived after the window), or undefined when there is no window and arrival. */
export function arrivalAgainstWindow(tokens: readonly Token[], from: number, to: number): number | undefined {
  // No clock time, no window and no arrival to compare: most sentences.
  let times = 0;
  for (let i = from; i < to; i++) if (clock(tokens[i]?.lower ?? '') !== undefined || range(tokens[i]?.lower ?? '')) times += 1;
  if (times === 0) return undefined;
  const stated = statedWindow(tokens, from, to);
  if (!stated) {
    const early = againstAppointment(tokens, from, to);
    if (early !== undefined) return early;
  }
  const window = stated ?? promisedTime(tokens, from, to);
  return window ? arrivalAfter(tokens, window, to) : undefined;
}

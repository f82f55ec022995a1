/**
 * Opening hours in schema.org's `openingHours` form (contract §2): day ranges or lists of the two-letter
 * days, then optionally one or more `HH:MM-HH:MM` spans, e.g. "Mo-Fr 08:00-18:00", "Sa 09:00-12:00",
 * "Tu,Th 16:00-20:00", "Mo-Fr 08:00-12:00,13:00-17:00", "Mo-Su". Anything else is published as is in
 * JSON-LD, where it means nothing to a machine, so an import refuses it and suggests the schema.org
 * form when it can read the hours ("Mon-Fri 8am-5pm" → "Mo-Fr 08:00-17:00").
 */
const DAY = '(?:Mo|Tu|We|Th|Fr|Sa|Su)';
const DAYS = `${DAY}(?:-${DAY})?(?:,${DAY}(?:-${DAY})?)*`;
const TIME = '(?:[01]\\d|2[0-3]):[0-5]\\d|24:00';
const SPAN = `(?:${TIME})-(?:${TIME})`;
const OPENING_HOURS = new RegExp(`^${DAYS}(?: ${SPAN}(?:,${SPAN})*)?$`);

export function isOpeningHours(value: string): boolean {
  return OPENING_HOURS.test(value);
}

const DAY_NAMES: Readonly<Record<string, string>> = {
  mo: 'Mo',
  mon: 'Mo',
  monday: 'Mo',
  tu: 'Tu',
  tue: 'Tu',
  tues: 'Tu',
  tuesday: 'Tu',
  we: 'We',
  wed: 'We',
  wednesday: 'We',
  th: 'Th',
  thu: 'Th',
  thur: 'Th',
  thurs: 'Th',
  thursday: 'Th',
  fr: 'Fr',
  fri: 'Fr',
  friday: 'Fr',
  sa: 'Sa',
  sat: 'Sa',
  saturday: 'Sa',
  su: 'Su',
  sun: 'Su',
  sunday: 'Su',
};

/** "8am", "8:30 pm", "17:00", "17h" → "08:00", "20:30", "17:00"; null when not a time of day. */
function clock(raw: string): string | null {
  const m = /^(\d{1,2})(?:[:.h](\d{2}))?\s*(am|pm|a\.m\.|p\.m\.)?$/i.exec(raw.trim());
  if (!m) return null;
  let h = Number(m[1]);
  const min = Number(m[2] ?? '0');
  const half = m[3]?.toLowerCase().replace(/\./g, '');
  if (half) {
    if (h < 1 || h > 12) return null;
    h = (h % 12) + (half === 'pm' ? 12 : 0);
  }
  if (h > 24 || min > 59 || (h === 24 && min > 0)) return null;
  return `${String(h).padStart(2, '0')}:${String(min).padStart(2, '0')}`;
}

/** The schema.org form of hours people write ("Mon-Fri 8am-5pm", "Sat 9:00 - 12:00"), or null. */
export function suggestOpeningHours(raw: string): string | null {
  const m = /^\s*([A-Za-z]+)(?:\s*(?:-|–|to)\s*([A-Za-z]+))?\s*:?\s+(.+?)\s*(?:-|–|to)\s*(.+?)\s*$/.exec(raw);
  if (!m) return null;
  const from = DAY_NAMES[m[1]!.toLowerCase()];
  const to = m[2] === undefined ? undefined : DAY_NAMES[m[2].toLowerCase()];
  const opens = clock(m[3]!);
  const closes = clock(m[4]!);
  if (!from || (m[2] !== undefined && !to) || !opens || !closes) return null;
  const suggestion = `${from}${to ? `-${to}` : ''} ${opens}-${closes}`;
  return isOpeningHours(suggestion) ? suggestion : null;
}

/** Display helpers for pages and the embed: plain strings, escaped by the renderer. */

const DATE_FORMAT = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' });

/** "March 4, 2025" for a YYYY-MM-DD day (the business's local day, so no time zone shift). */
export function formatDate(date: string): string {
  const ms = Date.parse(`${date}T00:00:00Z`);
  return Number.isNaN(ms) ? date : DATE_FORMAT.format(ms);
}

const DAYS: Record<string, string> = { Mo: 'Mon', Tu: 'Tue', We: 'Wed', Th: 'Thu', Fr: 'Fri', Sa: 'Sat', Su: 'Sun' };

/** schema.org openingHours ("Mo-Fr 07:00-19:00") as people read it ("Mon–Fri 07:00–19:00"). */
export function formatHours(spec: string): string {
  return spec
    .replace(/\b(Mo|Tu|We|Th|Fr|Sa|Su)\b/g, (d) => DAYS[d] ?? d)
    .replace(/(\w)-(\w)/g, '$1–$2')
    .replace(/,/g, ', ');
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
}

/** A rating to two decimals as /reviews.json has it, without trailing zeros beyond one: 4.6, 4.62. */
export function formatRating(value: number): string {
  return value.toFixed(2).replace(/0$/, '');
}

export function percent(part: number, whole: number): number {
  return whole === 0 ? 0 : Math.round((part / whole) * 100);
}

const PLATFORMS: Readonly<Record<string, string>> = {
  google: 'Google',
  yelp: 'Yelp',
  facebook: 'Facebook',
  trustpilot: 'Trustpilot',
  birdeye: 'Birdeye',
  podium: 'Podium',
  tripadvisor: 'Tripadvisor',
  nextdoor: 'Nextdoor',
  angi: 'Angi',
  homeadvisor: 'HomeAdvisor',
  houzz: 'Houzz',
  thumbtack: 'Thumbtack',
  bbb: 'BBB',
  bing: 'Bing',
  apple: 'Apple Maps',
  website: 'our website',
};

/**
 * Where a review was first published, as people name it ("Google", "Trustpilot", not "google"); a
 * platform this table does not know is capitalised ("angies-list" → "Angies-list").
 */
export function platformName(platform: string): string {
  const known = PLATFORMS[platform.toLowerCase()];
  if (known) return known;
  return platform.charAt(0).toUpperCase() + platform.slice(1);
}

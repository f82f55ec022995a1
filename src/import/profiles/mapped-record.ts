import { derivedReviewId } from '../derived-id.js';
import { parseDate, parseRating } from '../sheet-values.js';

/** One platform review as an import record, with each of its fields that could not be read as a problem. */
export interface MappedRecord {
  value: Record<string, unknown>;
  problems: { path: string; message: string }[];
}

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined);
const filled = (v: unknown): string | undefined => {
  const s = str(v)?.trim();
  return s ? s : undefined;
};

/**
 * Builds the import record of one platform review (contract §3.1): reviews from a platform's export or
 * API are verified by that platform. Each setter names the platform's own field in its problem, so a
 * message points at what the file says ("createdAt", "Review Stars"), not at the record it becomes.
 */
export class RecordBuilder {
  readonly value: Record<string, unknown> = { verified: true };
  readonly problems: MappedRecord['problems'] = [];

  constructor(platform: string, url?: unknown) {
    const link = filled(url);
    this.value.source = { platform, url: link && /^https?:\/\//i.test(link) ? link : null };
  }

  id(raw: unknown): this {
    const id = filled(raw);
    if (id !== undefined) this.value.id = id;
    return this;
  }

  rating(field: string, raw: unknown): this {
    const parsed = raw === undefined || raw === null || raw === '' ? null : parseRating(String(raw));
    if (parsed?.ok) this.value.rating = parsed.value;
    else this.problems.push({ path: field, message: parsed ? `${field}: ${parsed.message}` : `${field} is required (1 to 5 stars)` });
    return this;
  }

  date(field: string, raw: unknown): this {
    const s = filled(raw);
    const parsed = s === undefined ? null : parseDate(s, 'MDY');
    if (parsed?.ok) this.value.date = parsed.value;
    else
      this.problems.push({
        path: field,
        message: parsed ? `${field}: ${parsed.message}` : `${field} is required (the day the review was written)`,
      });
    return this;
  }

  author(name: unknown, fallback: string, location?: unknown): this {
    this.value.author = { name: filled(name) ?? fallback, location: filled(location) ?? null };
    return this;
  }

  text(raw: unknown): this {
    this.value.text = str(raw) ?? '';
    return this;
  }

  title(raw: unknown): this {
    const title = filled(raw);
    if (title !== undefined) this.value.title = title;
    return this;
  }

  language(raw: unknown): this {
    const language = filled(raw);
    if (language !== undefined) this.value.language = language;
    return this;
  }

  /** The business's public reply; its date is the day it was written, when the platform gives one. */
  response(text: unknown, field: string, date: unknown): this {
    const body = filled(text);
    if (body === undefined) return this;
    const when = filled(date);
    const parsed = when === undefined ? null : parseDate(when, 'MDY');
    if (parsed && !parsed.ok) this.problems.push({ path: field, message: `${field}: ${parsed.message}` });
    this.value.response = { text: str(text)!, date: parsed?.ok ? parsed.value : null };
    return this;
  }

  hidden(hidden: boolean): this {
    if (hidden) this.value.hidden = true;
    return this;
  }

  /** The record; without a platform id, the stable id derived from platform, author, date and text. */
  done(): MappedRecord {
    const v = this.value;
    if (v.id === undefined && typeof v.date === 'string') {
      v.id = derivedReviewId({
        platform: (v.source as { platform: string }).platform,
        author: (v.author as { name: string } | undefined)?.name ?? '',
        date: v.date,
        text: typeof v.text === 'string' ? v.text : '',
      });
    }
    return { value: v, problems: this.problems };
  }
}

/** "Google", "Google My Business", "Yelp" → `google`, `google`, `yelp`: a platform as `source.platform` names it. */
export function platformName(raw: unknown, fallback: string): string {
  const s = filled(raw)?.toLowerCase();
  if (!s) return fallback;
  if (s.startsWith('google')) return 'google';
  if (s.startsWith('facebook')) return 'facebook';
  const slug = s.replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
  return slug || fallback;
}

import { BusinessSchema, type Business } from '../domain/business.js';
import type { IncomingReview } from '../domain/import-plan.js';
import { ImportReviewSchema, type ImportReview } from '../domain/import-record.js';
import { toIssues } from '../domain/errors.js';
import type { MentionMatcher } from '../domain/mentions.js';
import type { RawFile } from './raw-records.js';

export interface ImportProblem {
  file: string;
  record: number;
  line?: number;
  id?: string;
  path: string;
  message: string;
}

export function formatProblem(p: ImportProblem): string {
  const where = p.line !== undefined ? `line ${p.line}` : p.record > 0 ? `record ${p.record}` : 'file';
  const id = p.id ? ` (id ${p.id})` : '';
  // Messages name their field already ("rating: Too big …", "author.name is required").
  const path = p.path && !p.message.includes(p.path) ? `${p.path}: ` : '';
  return `${p.file}: ${where}${id}: ${path}${p.message}`;
}

export interface ValidatedImport {
  business?: Business;
  records: { review: ImportReview; file: string; record: number; line?: number }[];
  problems: ImportProblem[];
}

/** Validates every record of every file and lists every problem (contract §3: all or nothing). */
export function validateFiles(files: { name: string; raw: RawFile }[], options: { assumeVerified: boolean }): ValidatedImport {
  const out: ValidatedImport = { records: [], problems: [] };
  const seen = new Map<string, string>();
  for (const { name, raw } of files) {
    for (const p of raw.problems)
      out.problems.push({ file: name, record: p.record, ...(p.line !== undefined ? { line: p.line } : {}), path: '', message: p.message });
    if (raw.business !== undefined) {
      const b = BusinessSchema.safeParse(raw.business);
      if (b.success) out.business = b.data;
      else
        for (const i of toIssues(b.error, ['business']))
          out.problems.push({ file: name, record: 0, path: i.path.join('.'), message: i.message });
    }
    for (const r of raw.records) {
      const where = { file: name, record: r.record, ...(r.line !== undefined ? { line: r.line } : {}) };
      const idValue = r.value && typeof r.value === 'object' ? (r.value as { id?: unknown }).id : undefined;
      const id = typeof idValue === 'string' ? idValue : undefined;
      const parsed = ImportReviewSchema.safeParse(r.value);
      if (!parsed.success) {
        for (const i of toIssues(parsed.error))
          out.problems.push({ ...where, ...(id ? { id } : {}), path: i.path.join('.') || '(record)', message: i.message });
        continue;
      }
      const review = parsed.data;
      if (review.verified === undefined && !options.assumeVerified) {
        out.problems.push({
          ...where,
          id: review.id,
          path: 'verified',
          message: 'verified is required (true or false); pass --assume-verified to treat records without it as verified',
        });
        continue;
      }
      const dup = seen.get(review.id);
      if (dup) {
        out.problems.push({ ...where, id: review.id, path: 'id', message: `duplicate id, first seen at ${dup}` });
        continue;
      }
      seen.set(review.id, `${name} ${r.line !== undefined ? `line ${r.line}` : `record ${r.record}`}`);
      out.records.push({ review, ...where });
    }
  }
  return out;
}

/**
 * The stored form of an import record. Mention tags that the text already yields are dropped, so an
 * export (whose `mentions` include the derived ones) imports back as the same stored record.
 */
export function toIncoming(r: ImportReview, matcher: MentionMatcher): IncomingReview {
  const title = r.title ?? null;
  const text = r.text;
  const derived = matcher.resolve(title, text, { technicians: [], services: [], service_areas: [] });
  const keep = (given: string[] | undefined, found: { id: string }[]) =>
    [...new Set(given ?? [])].filter((id) => !found.some((f) => f.id === id));
  return {
    id: r.id,
    date: r.date,
    rating: r.rating,
    title,
    text,
    language: r.language ?? null,
    author: { name: r.author.name, location: r.author.location ?? null },
    source: { platform: r.source.platform, url: r.source.url ?? null },
    verified: r.verified ?? true,
    hidden: r.hidden,
    mention_tags: {
      technicians: keep(r.mentions?.technicians, derived.technicians),
      services: keep(r.mentions?.services, derived.services),
      service_areas: keep(r.mentions?.service_areas, derived.service_areas),
    },
    response: r.response ? { text: r.response.text, date: r.response.date ?? null } : null,
    ...(r.updated_at ? { updated_at: r.updated_at } : {}),
  };
}

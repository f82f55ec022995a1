import { decodeUtf8 } from './decode-text.js';
import { fromGbpReview, gbpReviewsOf, isEmptyGbpList, type MappedRecord } from './gbp.js';
import { readSpreadsheet, type SpreadsheetOptions } from './spreadsheet.js';

/** One record as read from a file, before validation, with where it came from. */
export interface RawRecord {
  /** 1-based record number within its file. */
  record: number;
  /** 1-based line number for JSONL and CSV (contract §3). */
  line?: number;
  value: unknown;
  /** Field paths whose problem the reader has already listed: validation does not repeat them. */
  skip?: string[];
  /** The id was derived from platform, author, date and text (no id column). */
  derivedId?: boolean;
}

/** A problem found while reading: a whole file (record 0), or one record's field. */
export interface RawProblem {
  record: number;
  line?: number;
  id?: string;
  path?: string;
  message: string;
}

export interface RawFile {
  business?: unknown;
  records: RawRecord[];
  problems: RawProblem[];
  /** The source the file was read as (for the summary). */
  kind?: 'dataset' | 'gbp' | 'spreadsheet' | 'jsonl';
}

export const IMPORT_FORMATS = ['json', 'jsonl', 'csv', 'gbp'] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

export function formatOf(file: string, explicit?: string): ImportFormat {
  const f = (explicit ?? file.split('.').pop() ?? '').toLowerCase();
  if ((IMPORT_FORMATS as readonly string[]).includes(f)) return f as ImportFormat;
  if (f === 'ndjson') return 'jsonl';
  if (f === 'tsv') return 'csv';
  throw new Error(`cannot tell the format of ${file}: name it .json, .jsonl or .csv, or pass --format json|jsonl|csv|gbp`);
}

/**
 * A platform's review objects as import records, each mapped by `map` (contract §3.1, §3.2): what a
 * mapping cannot read is one problem per field, and the record is not validated again.
 */
export function mappedFile(items: readonly unknown[], map: (raw: unknown) => MappedRecord, kind?: RawFile['kind']): RawFile {
  const out: RawFile = { records: [], problems: [], ...(kind ? { kind } : {}) };
  items.forEach((r, i) => {
    const mapped = map(r);
    const id = typeof mapped.value.id === 'string' ? mapped.value.id : undefined;
    for (const p of mapped.problems) out.problems.push({ record: i + 1, ...(id ? { id } : {}), path: p.path, message: p.message });
    out.records.push({ record: i + 1, value: mapped.value, skip: mapped.problems.length ? ['(record)'] : [] });
  });
  return out;
}

/** Google Business Profile reviews as import records (contract §3.1): a file's, or a sync's listing. */
export const readGbp = (reviews: readonly unknown[]): RawFile => mappedFile(reviews, fromGbpReview, 'gbp');

/**
 * A dataset document (`{business, reviews}`), a JSON array of reviews, or Google Business Profile
 * JSON (detected from content, or forced with `--format gbp`).
 */
function readJson(text: string, gbp: boolean): RawFile {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    return { records: [], problems: [{ record: 0, message: `not valid JSON: ${(e as Error).message}` }] };
  }
  const gbpReviews = gbpReviewsOf(doc);
  if (gbpReviews) return readGbp(gbpReviews);
  if (gbp) {
    if (isEmptyGbpList(doc)) return { records: [], problems: [], kind: 'gbp' };
    return {
      records: [],
      problems: [
        {
          record: 0,
          message:
            'not Google Business Profile review JSON: expected {"reviews": [...]}, an array of reviews or one review with starRating',
        },
      ],
    };
  }
  if (Array.isArray(doc)) return { records: doc.map((value, i) => ({ record: i + 1, value })), problems: [], kind: 'dataset' };
  if (doc && typeof doc === 'object' && ('reviews' in doc || 'business' in doc)) {
    const d = doc as { business?: unknown; reviews?: unknown };
    if (d.reviews !== undefined && !Array.isArray(d.reviews))
      return { records: [], problems: [{ record: 0, message: '"reviews" must be an array' }] };
    const reviews = (d.reviews as unknown[] | undefined) ?? [];
    return { business: d.business, records: reviews.map((value, i) => ({ record: i + 1, value })), problems: [], kind: 'dataset' };
  }
  return {
    records: [],
    problems: [
      {
        record: 0,
        message: 'expected a dataset document ({"business", "reviews"}), an array of reviews, or Google Business Profile reviews',
      },
    ],
  };
}

function readJsonl(text: string): RawFile {
  const out: RawFile = { records: [], problems: [], kind: 'jsonl' };
  const lines = text.split(/\r?\n/);
  let record = 0;
  lines.forEach((line, i) => {
    if (line.trim() === '') return;
    record++;
    try {
      out.records.push({ record, line: i + 1, value: JSON.parse(line) });
    } catch (e) {
      out.problems.push({ record, line: i + 1, message: `not valid JSON: ${(e as Error).message}` });
    }
  });
  return out;
}

/** Reads one file's bytes in the given format; problems never throw. */
export function readRecords(
  input: string | Uint8Array,
  format: ImportFormat,
  options: SpreadsheetOptions = {},
): RawFile & { mapped?: Set<string> } {
  let text: string;
  if (typeof input === 'string') text = input.replace(/^\uFEFF/, '');
  else {
    const decoded = decodeUtf8(input, format === 'csv' ? 'csv' : 'json');
    if (decoded.problems.length > 0)
      return {
        records: [],
        problems: decoded.problems.map((p) => ({
          record: 0,
          line: p.line,
          ...(p.field !== undefined ? { path: p.field } : {}),
          message: p.message,
        })),
      };
    text = decoded.text;
  }
  switch (format) {
    case 'json':
      return readJson(text, false);
    case 'gbp':
      return readJson(text, true);
    case 'jsonl':
      return readJsonl(text);
    case 'csv':
      return { ...readSpreadsheet(text, options), kind: 'spreadsheet' };
  }
}

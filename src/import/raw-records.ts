import { parse as parseCsv } from 'csv-parse/sync';

/** One record as read from a file, before validation, with where it came from. */
export interface RawRecord {
  /** 1-based record number within its file. */
  record: number;
  /** 1-based line number for JSONL and CSV (contract §3). */
  line?: number;
  value: unknown;
}

export interface RawFile {
  business?: unknown;
  records: RawRecord[];
  /** Problems that stop reading a record at all (malformed JSON on a line). */
  problems: { record: number; line?: number; message: string }[];
}

export type ImportFormat = 'json' | 'jsonl' | 'csv';

export function formatOf(file: string, explicit?: string): ImportFormat {
  const f = (explicit ?? file.split('.').pop() ?? '').toLowerCase();
  if (f === 'json' || f === 'jsonl' || f === 'csv') return f;
  if (f === 'ndjson') return 'jsonl';
  throw new Error(`cannot tell the format of ${file}: name it .json, .jsonl or .csv, or pass --format json|jsonl|csv`);
}

/** A dataset document (`{business, reviews}`) or a JSON array of reviews. */
function readJson(text: string): RawFile {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    return { records: [], problems: [{ record: 0, message: `not valid JSON: ${(e as Error).message}` }] };
  }
  if (Array.isArray(doc)) return { records: doc.map((value, i) => ({ record: i + 1, value })), problems: [] };
  if (doc && typeof doc === 'object' && ('reviews' in doc || 'business' in doc)) {
    const d = doc as { business?: unknown; reviews?: unknown };
    if (d.reviews !== undefined && !Array.isArray(d.reviews))
      return { records: [], problems: [{ record: 0, message: '"reviews" must be an array' }] };
    const reviews = (d.reviews as unknown[] | undefined) ?? [];
    return { business: d.business, records: reviews.map((value, i) => ({ record: i + 1, value })), problems: [] };
  }
  return {
    records: [],
    problems: [{ record: 0, message: 'expected a dataset document ({"business", "reviews"}) or an array of reviews' }],
  };
}

function readJsonl(text: string): RawFile {
  const out: RawFile = { records: [], problems: [] };
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

// CSV has no types: these columns hold lists (`;`-separated), booleans or numbers (contract §3).
const LIST_COLUMNS = new Set(['mentions.technicians', 'mentions.services', 'mentions.service_areas']);
const BOOLEAN_COLUMNS = new Set(['verified', 'hidden']);
const NUMBER_COLUMNS = new Set(['rating']);
const BOOLEANS: Record<string, boolean> = { true: true, false: false, yes: true, no: false, '1': true, '0': false };

function setPath(target: Record<string, unknown>, path: string[], value: unknown): void {
  let node = target;
  for (const key of path.slice(0, -1)) {
    if (typeof node[key] !== 'object' || node[key] === null) node[key] = {};
    node = node[key] as Record<string, unknown>;
  }
  node[path.at(-1)!] = value;
}

function csvValue(column: string, cell: string): unknown {
  if (LIST_COLUMNS.has(column))
    return cell
      .split(';')
      .map((s) => s.trim())
      .filter(Boolean);
  if (BOOLEAN_COLUMNS.has(column)) return BOOLEANS[cell.trim().toLowerCase()] ?? cell;
  if (NUMBER_COLUMNS.has(column)) return /^-?\d+(\.\d+)?$/.test(cell.trim()) ? Number(cell) : cell;
  return cell;
}

/** 1-based line of each character offset; CRLF, LF and a lone CR each end a line. */
function lineIndex(text: string): (offset: number) => number {
  const starts = [0];
  for (const m of text.matchAll(/\r\n|\n|\r/g)) starts.push(m.index + m[0].length);
  return (offset) => {
    let lo = 0;
    let hi = starts.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (starts[mid]! <= offset) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

/** CSV with a header row; nested fields as dotted columns (`author.name`); an empty cell is absent. */
function readCsv(text: string): RawFile {
  let rows: { record: Record<string, string>; raw: string }[];
  try {
    rows = parseCsv(text, { columns: true, bom: true, raw: true, skip_empty_lines: true, relax_column_count: false }) as typeof rows;
  } catch (e) {
    const err = e as Error & { lines?: number };
    return { records: [], problems: [{ record: 0, ...(err.lines ? { line: err.lines } : {}), message: `not valid CSV: ${err.message}` }] };
  }
  // A record is named by the line it starts on (contract §3), also when a quoted cell spans lines:
  // the raw records are consecutive and end the file, so their offsets follow from their lengths.
  const lineAt = lineIndex(text);
  let offset = text.length - rows.reduce((n, r) => n + r.raw.length, 0);
  return {
    records: rows.map(({ record, raw }, i) => {
      const start = offset + (/^[\r\n]*/.exec(raw)?.[0].length ?? 0);
      offset += raw.length;
      const value: Record<string, unknown> = {};
      for (const [column, cell] of Object.entries(record)) {
        if (cell === '') continue;
        setPath(value, column.split('.'), csvValue(column, cell));
      }
      return { record: i + 1, line: lineAt(start), value };
    }),
    problems: [],
  };
}

export function readRecords(text: string, format: ImportFormat): RawFile {
  switch (format) {
    case 'json':
      return readJson(text);
    case 'jsonl':
      return readJsonl(text);
    case 'csv':
      return readCsv(text);
  }
}

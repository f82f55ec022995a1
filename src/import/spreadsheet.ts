import { parse as parseCsv } from 'csv-parse/sync';
import { derivedReviewId } from './derived-id.js';
import type { IGNORE } from './header-synonyms.js';
import { describeField, IMPORT_FIELDS, matchHeaders, REQUIRED_FIELDS, type ImportField } from './header-synonyms.js';
import type { RawFile, RawProblem, RawRecord } from './raw-records.js';
import { detectDateOrder, dayMonthFields, parseDate, parseRating, type DateOrder } from './sheet-values.js';

export interface SpreadsheetOptions {
  /** `--map`, keyed by normalized column name. */
  map?: ReadonlyMap<string, ImportField | typeof IGNORE>;
  /** `--delimiter`; otherwise detected from the header row. */
  delimiter?: string;
  /** `--date-format`; otherwise decided per file. */
  dateFormat?: DateOrder;
  /** `--platform`: `source.platform` where the file has none. */
  platform?: string;
}

// Cells of these fields are lists (`;`-separated) or booleans (contract §3).
const LIST_FIELDS = new Set<ImportField>(['mentions.technicians', 'mentions.services', 'mentions.service_areas']);
const BOOLEAN_FIELDS = new Set<ImportField>(['verified', 'hidden']);
const DATE_FIELDS = new Set<ImportField>(['date', 'response.date']);
const BOOLEANS: Readonly<Record<string, boolean>> = { true: true, false: false, yes: true, no: false, '1': true, '0': false };
const DELIMITERS = [',', ';', '\t', '|'];

/** The delimiter that splits the header row into the most columns; `,` wins a tie (European Excel writes `;`). */
export function detectDelimiter(text: string): string {
  let best = ',';
  let most = 0;
  for (const delimiter of DELIMITERS) {
    try {
      const rows = parseCsv(text, { delimiter, bom: true, to_line: 1, relax_quotes: true, relax_column_count: true }) as string[][];
      const n = rows[0]?.length ?? 0;
      if (n > most) [best, most] = [delimiter, n];
    } catch {
      // not this delimiter
    }
  }
  return best;
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

/** Sets a dotted field; the path is one of the table's fields, never a column name (no prototype walk). */
function setField(target: Record<string, unknown>, field: ImportField, value: unknown): void {
  const path = field.split('.');
  let node = target;
  for (const key of path.slice(0, -1)) {
    if (typeof node[key] !== 'object' || node[key] === null) node[key] = {};
    node = node[key] as Record<string, unknown>;
  }
  node[path.at(-1)!] = value;
}

type Cell = { ok: true; value: unknown } | { ok: false; message: string };

function cellValue(field: ImportField, cell: string, order: DateOrder | undefined): Cell {
  if (field === 'rating') return parseRating(cell);
  if (DATE_FIELDS.has(field)) return parseDate(cell, order);
  if (LIST_FIELDS.has(field))
    return {
      ok: true,
      value: cell
        .split(';')
        .map((s) => s.trim())
        .filter(Boolean),
    };
  if (BOOLEAN_FIELDS.has(field)) {
    const b = BOOLEANS[cell.trim().toLowerCase()];
    return b === undefined ? { ok: false, message: `"${cell}" is not a yes/no value (true/false, yes/no or 1/0)` } : { ok: true, value: b };
  }
  if (field === 'source.platform') return { ok: true, value: cell.trim().toLowerCase() };
  if (field === 'author.name' || field === 'id' || field === 'language' || field === 'source.url') return { ok: true, value: cell.trim() };
  return { ok: true, value: cell };
}

/**
 * A spreadsheet (CSV with a header row, contract §3 and §3.1): headers matched through the synonym
 * table and `--map`, values read the way people write them, ids derived when there is no id column.
 * Every header and cell problem is listed, each with its line and the value.
 */
export function readSpreadsheet(text: string, options: SpreadsheetOptions = {}): RawFile & { mapped: Set<string> } {
  const delimiter = options.delimiter ?? detectDelimiter(text);
  let rows: { record: string[]; raw: string }[];
  try {
    rows = parseCsv(text, { delimiter, bom: true, raw: true, skip_empty_lines: true, relax_column_count: true }) as unknown as typeof rows;
  } catch (e) {
    const err = e as Error & { lines?: number };
    return {
      records: [],
      problems: [{ record: 0, ...(err.lines ? { line: err.lines } : {}), message: `not valid CSV: ${err.message}` }],
      mapped: new Set(),
    };
  }
  const problems: RawProblem[] = [];
  const header = rows[0]?.record ?? [];
  const match = matchHeaders(header, options.map);
  const fileProblem = (path: string, message: string) => problems.push({ record: 0, line: 1, path, message });
  for (const column of match.forbidden) fileProblem('', `column name "${column}" is not allowed`);
  for (const column of match.unknown)
    fileProblem(
      '',
      `column "${column}" is not recognised: rename it to an expected column (listed below), map it with --map "${column}=field", or ignore it with --map "${column}=-"`,
    );
  for (const d of match.duplicates)
    fileProblem(
      d.field,
      `columns ${d.columns.map((c) => `"${c}"`).join(' and ')} all give ${d.field}: keep one, or --map "${d.columns[1]}=-"`,
    );
  for (const field of match.missing)
    fileProblem(field, `no column gives ${field}; expected one of ${describeField(field)}, or --map "Your Column=${field}"`);
  if (match.unknown.length > 0 || match.missing.length > 0) {
    const optional = IMPORT_FIELDS.filter((f) => !REQUIRED_FIELDS.includes(f));
    fileProblem(
      '',
      `expected columns: ${REQUIRED_FIELDS.join(', ')} (required); ${optional.join(', ')} (optional); the README's "Publish your own reviews" lists the names each goes by`,
    );
  }

  // The day/month order is decided once per file, from every date cell (contract §3.1).
  let order = options.dateFormat;
  const dateColumns = match.fields.flatMap((f, i) => (f && DATE_FIELDS.has(f) ? [i] : []));
  if (!order) {
    const decided = detectDateOrder(rows.slice(1).flatMap((r) => dateColumns.map((i) => r.record[i] ?? '')));
    if ('order' in decided) order = decided.order;
    else if ('conflict' in decided)
      fileProblem(
        'date',
        `dates are written both day-first ("${decided.conflict[0]}") and month-first ("${decided.conflict[1]}"); make them one form`,
      );
    else
      fileProblem(
        'date',
        `dates such as "${decided.undecidable.join('", "')}" could be day/month or month/day: pass --date-format MDY (3/25/2024) or DMY (25/3/2024)`,
      );
  }

  const lineAt = lineIndex(text);
  let offset = text.length - rows.reduce((n, r) => n + r.raw.length, 0);
  const records: RawRecord[] = [];
  rows.forEach(({ record: cells, raw }, i) => {
    const line = lineAt(offset + (/^[\r\n]*/.exec(raw)?.[0].length ?? 0));
    offset += raw.length;
    if (i === 0 || cells.every((c) => c.trim() === '')) return;
    const recordNo = records.length + 1;
    if (cells.length !== header.length) {
      problems.push({ record: recordNo, line, path: '(record)', message: `has ${cells.length} cells, the header has ${header.length}` });
      return;
    }
    const value: Record<string, unknown> = {};
    const skip: string[] = [...match.missing];
    const firstProblem = problems.length;
    cells.forEach((cell, c) => {
      const field = match.fields[c];
      if (!field || cell.trim() === '') return;
      // An undecided day/month order is one file problem above, not one per cell.
      if (!order && DATE_FIELDS.has(field) && dayMonthFields(cell)) return void skip.push(field);
      const v = cellValue(field, cell, order);
      if (v.ok) setField(value, field, v.value);
      else {
        skip.push(field);
        problems.push({ record: recordNo, line, path: field, message: `${field}: ${v.message}` });
      }
    });
    // Each problem names the record's id when the file gives one (contract §3).
    if (typeof value.id === 'string') for (const p of problems.slice(firstProblem)) p.id = value.id;
    const hadId = value.id !== undefined;
    completeRecord(value, options.platform);
    if (value.id === undefined) skip.push('id');
    records.push({ record: recordNo, line, value, skip, ...(!hadId && value.id !== undefined ? { derivedId: true } : {}) });
  });
  return { records, problems, mapped: match.mapped };
}

/** Platform from `--platform`, a reply date without a reply dropped, and the id derived when absent. */
function completeRecord(value: Record<string, unknown>, platform: string | undefined): void {
  const source = (value.source ??= {}) as Record<string, unknown>;
  if (source.platform === undefined) {
    if (platform) source.platform = platform;
    else if (Object.keys(source).length > 0) source.platform = 'website';
    else delete value.source;
  }
  const response = value.response as { text?: unknown; date?: unknown } | undefined;
  if (response && typeof response.text !== 'string') delete value.response;
  const author = (value.author as { name?: unknown } | undefined)?.name;
  if (value.id === undefined && typeof author === 'string' && typeof value.date === 'string') {
    const p = (value.source as { platform?: unknown } | undefined)?.platform;
    value.id = derivedReviewId({
      platform: typeof p === 'string' ? p : 'website',
      author,
      date: value.date,
      text: typeof value.text === 'string' ? value.text : '',
    });
  }
}

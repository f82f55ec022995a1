import * as XLSX from '@e965/xlsx';
import { parse as parseCsv } from 'csv-parse/sync';

/** One spreadsheet row: its cells as text, and where it starts (the CSV line, or the sheet's row number). */
export interface SheetRow {
  cells: string[];
  line: number;
}

export type Rows = { ok: true; rows: SheetRow[]; sheet?: string } | { ok: false; line?: number; message: string };

const DELIMITERS = [',', ';', '\t', '|'];
const LINE_BREAKS = /\r\n|\n|\r/g;

/** How much of a file's start is looked at to choose its delimiter: a header row, however wide, decides within it. */
const SAMPLE = 64 * 1024;

/** The delimiter that splits the header row into the most columns; `,` wins a tie (European Excel writes `;`). */
export function detectDelimiter(text: string): string {
  let best = ',';
  let most = 0;
  // Only the start is parsed, with each candidate: a million-column header row costs one parse, not five.
  const end = text.length > SAMPLE ? Math.max(text.lastIndexOf('\n', SAMPLE), SAMPLE) : text.length;
  const sample = text.slice(0, end);
  for (const delimiter of DELIMITERS) {
    try {
      const rows = parseCsv(sample, { delimiter, bom: true, to_line: 1, relax_quotes: true, relax_column_count: true }) as string[][];
      const n = rows[0]?.length ?? 0;
      if (n > most) [best, most] = [delimiter, n];
    } catch {
      // not this delimiter
    }
  }
  return best;
}

/**
 * A CSV text's rows, each with the line it starts on. The parser reports the line a record ends on;
 * the line breaks inside its quoted cells give the start. Each record is reduced to its cells as it is
 * parsed, so nothing else of the text is kept beside them (a 200 MB file stays near its own size).
 */
export function csvRows(text: string, delimiter = detectDelimiter(text)): Rows {
  try {
    // csv-parse counts a CRLF inside a quoted cell as two lines (its `lines` is where a record ends): the
    // CRLFs seen so far are taken back off, and the record's own line breaks give where it starts.
    let crlfs = 0;
    const onRecord = (record: string[], context: { lines: number }): SheetRow => {
      let breaks = 0;
      for (const c of record)
        if (c.length > 0 && (c.includes('\n') || c.includes('\r'))) {
          breaks += c.match(LINE_BREAKS)!.length;
          crlfs += c.split('\r\n').length - 1;
        }
      return { cells: record, line: context.lines - crlfs - breaks };
    };
    // csv-parse's types say on_record returns a record; any value is kept, and a row is what we keep.
    const rows = parseCsv(text, {
      delimiter,
      bom: true,
      skip_empty_lines: true,
      relax_column_count: true,
      on_record: onRecord as unknown as (record: string[]) => string[],
    }) as unknown as SheetRow[];
    return { ok: true, rows };
  } catch (e) {
    const err = e as Error & { lines?: number };
    return { ok: false, ...(err.lines ? { line: err.lines } : {}), message: `not valid CSV: ${err.message}` };
  }
}

const pad = (n: number) => String(n).padStart(2, '0');

/** A cell as the text a CSV would hold: a date cell as its calendar day, numbers and booleans as written. */
function cellText(c: XLSX.CellObject | undefined): string {
  if (!c || c.v === undefined || c.v === null) return '';
  if (c.t === 'n' && typeof c.v === 'number' && c.z !== undefined && XLSX.SSF.is_date(c.z)) {
    const d = XLSX.SSF.parse_date_code(c.v);
    return `${String(d.y).padStart(4, '0')}-${pad(d.m)}-${pad(d.d)}`;
  }
  if (c.t === 'e') return c.w ?? '';
  if (c.t === 'b') return c.v ? 'true' : 'false';
  return String(c.v);
}

/**
 * The rows of one sheet of an Excel workbook (`.xlsx`, also `.xls` and `.ods`), read with SheetJS: the
 * first sheet, or the one `--sheet` names (by name, or by its 1-based position). Each row's line is its
 * row number in the sheet, as Excel shows it.
 */
export function workbookRows(bytes: Uint8Array, sheet?: string): Rows {
  let book: XLSX.WorkBook;
  try {
    book = XLSX.read(bytes, { type: 'buffer', dense: true, cellNF: true, cellFormula: false, cellHTML: false, cellStyles: false });
  } catch (e) {
    return { ok: false, message: `not a readable Excel workbook: ${(e as Error).message}` };
  }
  const names = book.SheetNames;
  let name = names[0];
  if (sheet !== undefined) {
    const byName = names.find((n) => n === sheet) ?? names.find((n) => n.toLowerCase() === sheet.toLowerCase());
    name = byName ?? (/^\d+$/.test(sheet) ? names[Number(sheet) - 1] : undefined);
    if (name === undefined)
      return {
        ok: false,
        message: `--sheet ${sheet}: the workbook has no such sheet; its sheets are ${names.map((n) => `"${n}"`).join(', ')}`,
      };
  }
  if (name === undefined) return { ok: false, message: 'the workbook has no sheets' };
  const ws = book.Sheets[name]!;
  const data = (ws['!data'] ?? []) as (XLSX.CellObject[] | undefined)[];
  const ref = ws['!ref'];
  if (!ref) return { ok: true, rows: [], sheet: name };
  const range = XLSX.utils.decode_range(ref);
  const rows: SheetRow[] = [];
  for (let r = range.s.r; r <= range.e.r; r++) {
    const row = data[r];
    const cells: string[] = [];
    for (let c = range.s.c; c <= range.e.c; c++) cells.push(cellText(row?.[c]));
    while (cells.length > 0 && cells.at(-1) === '') cells.pop();
    if (cells.length === 0) continue;
    rows.push({ cells, line: r + 1 });
  }
  // A short row's missing trailing cells are empty, as they are in Excel.
  const width = rows[0]?.cells.length ?? 0;
  for (const row of rows) while (row.cells.length < width) row.cells.push('');
  return { ok: true, rows, sheet: name };
}

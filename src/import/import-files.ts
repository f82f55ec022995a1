import fs from 'node:fs/promises';
import path from 'node:path';
import type { ImportSummary, ReviewStore } from '../domain/ports.js';
import { applyRecords } from './apply-records.js';
import { parseColumnMap } from './header-synonyms.js';
import { formatOf, readRecords, type ImportFormat, type RawFile } from './raw-records.js';
import type { DateOrder } from './sheet-values.js';
import type { ImportProblem } from './validate-records.js';

export interface ImportOptions {
  files: string[];
  format?: ImportFormat;
  replace: boolean;
  assumeVerified: boolean;
  /** Validate and count, write nothing (`--dry-run`). */
  dryRun?: boolean;
  /** `--map "Column=field,..."` for spreadsheets. */
  map?: string;
  delimiter?: string;
  dateFormat?: DateOrder;
  /** `source.platform` for records that have none. */
  platform?: string;
  /** This is the bundled demo (only the server's demo loader says so). */
  demo?: boolean;
  /** Called as records are read and validated, then as they are written. */
  onProgress?: (phase: 'validate' | 'write', done: number, total: number) => void;
}

export type ImportOutcome =
  { ok: true; summary: ImportSummary; records: number; skipped: string[]; business: boolean } | { ok: false; problems: ImportProblem[] };

interface InputFile {
  /** How problems name the file: its base name, or its path inside a folder given on the command line. */
  name: string;
  file: string;
  /** Found by walking a folder: only Google Business Profile review files are taken from folders. */
  fromFolder: boolean;
}

/** A folder (a Google Takeout export) stands for the JSON files in it, at any depth, in name order. */
async function expand(args: string[]): Promise<{ inputs: InputFile[]; problems: ImportProblem[] }> {
  const inputs: InputFile[] = [];
  const problems: ImportProblem[] = [];
  for (const arg of args) {
    const stat = await fs.stat(arg).catch((e: NodeJS.ErrnoException) => e);
    if (stat instanceof Error) {
      problems.push({ file: path.basename(arg), record: 0, path: '', message: `cannot read ${arg}: ${stat.code ?? stat.message}` });
    } else if (stat.isDirectory()) {
      const entries = await fs.readdir(arg, { recursive: true, withFileTypes: true });
      const found = entries
        .filter((e) => e.isFile() && e.name.toLowerCase().endsWith('.json'))
        .map((e) => path.join(e.parentPath, e.name))
        .sort();
      for (const file of found) inputs.push({ name: path.join(path.basename(arg), path.relative(arg, file)), file, fromFolder: true });
      if (found.length === 0)
        problems.push({
          file: path.basename(arg),
          record: 0,
          path: '',
          message: 'the folder holds no .json files (a Google Takeout export holds reviews*.json)',
        });
    } else {
      inputs.push({ name: path.basename(arg), file: arg, fromFolder: false });
    }
  }
  return { inputs, problems };
}

/**
 * The import use case (contract §3, §3.1): read every file, validate every record, and only when all
 * are valid write them in one transaction. Any problem means nothing is written.
 */
export async function importFiles(store: ReviewStore, options: ImportOptions): Promise<ImportOutcome> {
  const { inputs, problems } = await expand(options.files);
  const columnMap = parseColumnMap(options.map ?? '');
  for (const message of columnMap.errors) problems.push({ file: '--map', record: 0, path: '', message });
  const files: { name: string; raw: RawFile }[] = [];
  const skipped: string[] = [];
  const usedMapKeys = new Set<string>();
  let spreadsheets = 0;
  for (const input of inputs) {
    let bytes: Buffer;
    try {
      bytes = await fs.readFile(input.file);
    } catch (e) {
      problems.push({
        file: input.name,
        record: 0,
        path: '',
        message: `cannot read ${input.file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`,
      });
      continue;
    }
    try {
      const format = input.fromFolder ? 'json' : formatOf(input.file, options.format);
      const raw = readRecords(bytes, format, {
        map: columnMap.map,
        ...(options.delimiter ? { delimiter: options.delimiter } : {}),
        ...(options.dateFormat ? { dateFormat: options.dateFormat } : {}),
        ...(options.platform ? { platform: options.platform } : {}),
      });
      // In a Takeout folder only review files count; the rest (posts, media, the profile) are listed.
      if (input.fromFolder && raw.kind !== 'gbp') {
        skipped.push(input.name);
        continue;
      }
      if (format === 'csv') spreadsheets++;
      for (const k of raw.mapped ?? []) usedMapKeys.add(k);
      files.push({ name: input.name, raw });
    } catch (e) {
      problems.push({ file: input.name, record: 0, path: '', message: (e as Error).message });
    }
  }
  if (inputs.length > 0 && inputs.every((i) => i.fromFolder) && files.length === 0 && problems.length === 0)
    problems.push({
      file: options.files.map((f) => path.basename(f)).join(', '),
      record: 0,
      path: '',
      message: 'no Google Business Profile review files found (reviews*.json)',
    });
  if (spreadsheets > 0)
    for (const key of columnMap.map.keys())
      if (!usedMapKeys.has(key))
        problems.push({
          file: '--map',
          record: 0,
          path: '',
          message: `--map names a column no file has ("${key}", compared without case and punctuation)`,
        });

  const applied = await applyRecords(store, files, options, problems);
  return applied.ok ? { ...applied, skipped } : applied;
}

import fs from 'node:fs/promises';
import path from 'node:path';
import type { ImportProblem } from './validate-records.js';

export interface InputFile {
  /** How problems name the file: its base name, or its path inside a folder given on the command line. */
  name: string;
  file: string;
  /** Found by walking a folder: only Google Business Profile review files are taken from folders. */
  fromFolder: boolean;
}

/** A folder's JSON file past this size is read only when its first bytes look like reviews. */
const LARGE_FILE = 16 * 1024 * 1024;
const SNIFF_BYTES = 64 * 1024;
// The keys of a Google Business Profile review, as Takeout and the API write them.
const REVIEW_KEYS = /"(?:starRating|reviewId|reviewReply)"\s*:/;

async function head(file: string): Promise<string> {
  const handle = await fs.open(file, 'r');
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(SNIFF_BYTES), 0, SNIFF_BYTES, 0);
    return buffer.subarray(0, bytesRead).toString('latin1');
  } finally {
    await handle.close();
  }
}

const megabytes = (n: number) => `${Math.round(n / (1024 * 1024))} MB`;

/**
 * The files an import reads: each file given, and for a folder (a Google Takeout export) the JSON files
 * in it, at any depth, in name order. A large file of a folder that does not start like review JSON (a
 * Takeout export's media or posts) is listed as skipped without being read, so it cannot exhaust memory.
 */
export async function expandInputs(args: string[]): Promise<{ inputs: InputFile[]; problems: ImportProblem[]; skipped: string[] }> {
  const inputs: InputFile[] = [];
  const problems: ImportProblem[] = [];
  const skipped: string[] = [];
  for (const arg of args) {
    const stat = await fs.stat(arg).catch((e: NodeJS.ErrnoException) => e);
    if (stat instanceof Error) {
      problems.push({ file: path.basename(arg), record: 0, path: '', message: unreadable(arg, stat) });
    } else if (stat.isDirectory()) {
      const entries = await fs.readdir(arg, { recursive: true, withFileTypes: true });
      const found = entries
        .filter((e) => e.isFile() && e.name.toLowerCase().endsWith('.json'))
        .map((e) => path.join(e.parentPath, e.name))
        .sort();
      for (const file of found) {
        const name = path.join(path.basename(arg), path.relative(arg, file));
        const size = (await fs.stat(file)).size;
        if (size > LARGE_FILE && !REVIEW_KEYS.test(await head(file))) {
          skipped.push(`${name} (${megabytes(size)}, not review JSON)`);
          continue;
        }
        inputs.push({ name, file, fromFolder: true });
      }
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
  return { inputs, problems, skipped };
}

/** Why a file could not be read, in words: "no such file: /path", not "ENOENT". */
export function unreadable(file: string, e: NodeJS.ErrnoException): string {
  if (e.code === 'ENOENT') return `no such file: ${file}`;
  if (e.code === 'EACCES' || e.code === 'EPERM') return `no permission to read ${file}`;
  if (e.code === 'EISDIR') return `${file} is a folder`;
  return `cannot read ${file}: ${e.code ?? e.message}`;
}

import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { parseLabelledJsonl, type LabelledSentence } from './absa-eval.js';

/**
 * Labelled JSON Lines from files or folders (a folder means its `*.jsonl`, sorted by name, so a
 * training run does not depend on the order a shell expands a glob in).
 */
export async function readLabelled(cwd: string, paths: readonly string[]): Promise<{ data: LabelledSentence[]; files: string[] }> {
  const files: string[] = [];
  for (const p of paths) {
    const full = resolve(cwd, p);
    if ((await stat(full)).isDirectory()) {
      const names = (await readdir(full)).filter((f) => f.endsWith('.jsonl')).sort();
      files.push(...names.map((f) => join(full, f)));
    } else files.push(full);
  }
  const data: LabelledSentence[] = [];
  for (const f of files) {
    try {
      data.push(...parseLabelledJsonl(await readFile(f, 'utf8')));
    } catch (e) {
      throw new Error(`${f}: ${(e as Error).message}`, { cause: e });
    }
  }
  return { data, files: files.map((f) => basename(f)) };
}

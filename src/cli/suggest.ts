import { distance } from 'fastest-levenshtein';

/**
 * The candidate nearest to what was typed, when it is near enough to be a typo: `improt` → `import`,
 * `--assume-verifed` → `--assume-verified`. At most a third of the letters (two in a short word: a swap is two edits), so an
 * unrelated word gets no suggestion rather than a wrong one.
 */
export function nearest(typed: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const c of candidates) {
    const d = distance(typed.toLowerCase(), c.toLowerCase());
    if (d < bestDistance) [best, bestDistance] = [c, d];
  }
  const allowed = Math.max(typed.length >= 4 ? 2 : 1, Math.floor(typed.length / 3));
  return best !== undefined && bestDistance <= allowed ? best : undefined;
}

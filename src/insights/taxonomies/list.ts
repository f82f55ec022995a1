/** A cue list written as comma-separated text, so long vocabularies stay readable as data. */
export function list(text: string): string[] {
  return text
    .split(/[,\n]/)
    .map((s) => s.trim())
    .filter(Boolean);
}

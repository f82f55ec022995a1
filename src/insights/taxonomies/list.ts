/**
 * A cue list written as text, items separated by a comma and white space, so long vocabularies stay
 * readable as data. A comma inside a cue (the comma token, as in "was #MONEY ,") is written without a
 * space after it.
 */
export function list(text: string): string[] {
  return text
    .split(/,\s+/)
    .map((s) => s.trim())
    .filter(Boolean);
}

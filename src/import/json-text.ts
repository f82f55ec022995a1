import { findNodeAtLocation, parseTree } from 'jsonc-parser/lib/esm/main.js';
/**
 * JSON.parse with the line and column of a syntax error: Node 20's message gives only a character
 * position ("... in JSON at position 311"), which no editor shows. A trailing comma in business.json is
 * then "line 12, column 3".
 */
export type JsonText = { ok: true; value: unknown } | { ok: false; line: number; column: number; message: string };

export function parseJsonText(text: string): JsonText {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (e) {
    const message = (e as Error).message;
    const at = /position (\d+)/.exec(message);
    const lineCol = /\(line (\d+) column (\d+)\)/.exec(message);
    let line = 1;
    let column = 1;
    if (lineCol) [line, column] = [Number(lineCol[1]), Number(lineCol[2])];
    else {
      const offset = at ? Number(at[1]) : text.length;
      for (let i = 0; i < offset && i < text.length; i++) {
        if (text.charCodeAt(i) === 10) {
          line++;
          column = 1;
        } else column++;
      }
    }
    const what = message
      .replace(/\s*(?:in JSON )?at position \d+(?: \(line \d+ column \d+\))?/, '')
      .replace(/\s*\(line \d+ column \d+\)/, '');
    return { ok: false, line, column, message: `not valid JSON: ${what}` };
  }
}

/** The line and column where the value at `path` starts in a JSON text, for problems about it. */
export function locateJsonPath(text: string, path: readonly (string | number)[]): { line: number; column: number } | undefined {
  const root = parseTree(text);
  let node = root ? findNodeAtLocation(root, [...path]) : undefined;
  // A missing field is reported where its object is.
  for (let depth = path.length - 1; !node && root && depth >= 0; depth--) node = findNodeAtLocation(root, path.slice(0, depth));
  if (!node) return undefined;
  let line = 1;
  let column = 1;
  for (let i = 0; i < node.offset; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      column = 1;
    } else column++;
  }
  return { line, column };
}

import { describe, expect, it } from 'vitest';
import { locateJsonPath, parseJsonText } from '../../src/import/json-text.js';

describe('JSON text', () => {
  it('names the line and column of a syntax error (a trailing comma)', () => {
    const text = '{\n  "business": {\n    "id": "b",\n    "name": "B",\n  }\n}\n';
    const parsed = parseJsonText(text);
    expect(parsed).toMatchObject({ ok: false, line: 5, column: 3 });
    expect(!parsed.ok && parsed.message).toMatch(/^not valid JSON: /);
  });
  it('finds where a value starts, or its nearest enclosing object', () => {
    const text = '{\n  "business": {\n    "opening_hours": [\n      "Mon-Fri 8am-5pm"\n    ]\n  }\n}';
    expect(locateJsonPath(text, ['business', 'opening_hours', 0])).toEqual({ line: 4, column: 7 });
    expect(locateJsonPath(text, ['business', 'name'])).toEqual({ line: 2, column: 15 });
  });
});

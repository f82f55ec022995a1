import { describe, expect, it } from 'vitest';
import { nearest } from '../../src/cli/suggest.js';

describe('nearest (did you mean)', () => {
  it('suggests the command or flag a typo stands for', () => {
    expect(nearest('improt', ['serve', 'import', 'init', 'export'])).toBe('import');
    expect(nearest('assume-verifed', ['assume-verified', 'replace', 'dry-run'])).toBe('assume-verified');
    expect(nearest('prot', ['port', 'host', 'base-url'])).toBe('port');
  });
  it('suggests nothing for a word that is not near any', () => {
    expect(nearest('deploy', ['serve', 'import', 'init', 'export'])).toBeUndefined();
    expect(nearest('x', ['serve', 'init'])).toBeUndefined();
  });
});

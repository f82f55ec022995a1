import type { Linter } from 'eslint';

/** folder of src/ → the folders (besides itself) it may import (eslint.layers.js). */
export declare const ALLOWED: Record<string, string[]>;
export declare const layerRules: Linter.Config[];

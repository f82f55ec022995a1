import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { AbsaModelFileSchema, type AbsaModelFile } from './insights/model/model-file.js';
import { packageUrl } from './package-root.js';

/**
 * The trained ABSA models that ship with the service (`models/*.json`, made by `npm run train-model`).
 * Read here, outside the pure insights engine, and handed to it. The folder sits at the package root.
 */
export const SHIPPED_MODELS_DIR = packageUrl('models/');

export function readModelFile(path: string | URL): AbsaModelFile {
  return AbsaModelFileSchema.parse(JSON.parse(readFileSync(path, 'utf8')));
}

export function readShippedModels(dir: URL = SHIPPED_MODELS_DIR): AbsaModelFile[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('-absa.json'))
    .sort()
    .map((f) => readModelFile(new URL(f, dir)));
}

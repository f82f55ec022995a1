import { resolveTaxonomy, type Taxonomy } from './taxonomy.js';
import { builtinTaxonomies } from './taxonomies/index.js';

/** Builtin taxonomies plus an operator's own, with every `extends` resolved. Later ids win. */
export function createTaxonomyRegistry(extra: readonly Taxonomy[] = []): ReadonlyMap<string, Taxonomy> {
  const raw = new Map<string, Taxonomy>();
  for (const t of [...builtinTaxonomies, ...extra]) {
    // A custom taxonomy that extends the builtin of its own id must see the builtin as its parent.
    const previous = raw.get(t.id);
    if (previous && t.extends === t.id) raw.set(`${t.id}#base`, previous);
    raw.set(t.id, t.extends === t.id ? { ...t, extends: `${t.id}#base` } : t);
  }
  const resolved = new Map<string, Taxonomy>();
  for (const [id, t] of raw) if (!id.endsWith('#base')) resolved.set(id, resolveTaxonomy(t, raw));
  return resolved;
}

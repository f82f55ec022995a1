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

/**
 * Each taxonomy id with the ids it extends, nearest first ("my-plumbing" → ["my-plumbing",
 * "home-services"]): a model trained for a parent serves the taxonomies that extend it.
 */
export function taxonomyLineage(extra: readonly Taxonomy[] = []): ReadonlyMap<string, string[]> {
  const parentOf = new Map<string, string | undefined>();
  for (const t of [...builtinTaxonomies, ...extra]) parentOf.set(t.id, t.extends === t.id ? parentOf.get(t.id) : t.extends);
  const out = new Map<string, string[]>();
  for (const id of parentOf.keys()) {
    const chain = [id];
    for (let p = parentOf.get(id); p && !chain.includes(p); p = parentOf.get(p)) chain.push(p);
    out.set(id, chain);
  }
  return out;
}

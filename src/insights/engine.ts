import type { Review } from '../domain/review.js';
import type { PublishedView } from '../domain/published-view.js';
import { compileTaxonomy, type CompiledTaxonomy } from './analysis/compiled-taxonomy.js';
import { analyzeReview, type ReviewAnalysis } from './analysis/review-analysis.js';
import { createTaxonomyRegistry, taxonomyLineage } from './registry.js';
import { loadAbsaModel, type AbsaModel } from './model/absa-model.js';
import { modelFileFor, type AbsaModelFile } from './model/model-file.js';
import { buildAspects } from './report/aspects.js';
import type { ReportContext } from './report/context.js';
import { buildEntities } from './report/entities.js';
import { buildFaq } from './report/faq.js';
import { buildSummary } from './report/summary.js';
import { buildTopics } from './report/topics.js';
import type { InsightsDocument } from './schema.js';
import { DEFAULT_TAXONOMY_ID } from './taxonomies/index.js';
import type { Taxonomy } from './taxonomy.js';

export const ENGINE_NAME = 'review-data-insights';
export const ENGINE_VERSION = '2.0.0';

/** Analyses kept outside the engine (persisted per review), offered to one compute. */
export interface ComputeOptions {
  /** Analyses of reviews the engine has not cached, by review id (read back from a store). */
  restored?: ReadonlyMap<string, ReviewAnalysis>;
  /** Called with each review analysed afresh by this compute, to be stored. */
  onAnalyzed?(review: Review, analysis: ReviewAnalysis): void;
}

export interface InsightsEngine {
  compute(view: PublishedView, options?: ComputeOptions): InsightsDocument;
  /** The published reviews whose analysis is not in the engine's own cache: what a compute would analyse. */
  uncached(view: Pick<PublishedView, 'business' | 'reviews'>): Review[];
  /** The taxonomy a view is analysed with (part of a stored analysis's key). */
  taxonomyOf(view: Pick<PublishedView, 'business'>): string;
  /** How the last compute went: reviews analysed afresh, analyses reused from the cache or restored. */
  lastRun(): { analyzed: number; reused: number; restored: number };
}

export interface InsightsEngineOptions {
  /** Custom taxonomies (parsed with parseTaxonomy); may replace or `extends` a builtin one. */
  taxonomies?: Taxonomy[];
  /**
   * Trained ABSA models (model files, already read): a taxonomy uses the model trained for it or for
   * the taxonomy it extends; a taxonomy with none is judged by its cue rules alone.
   */
  models?: AbsaModelFile[];
}

/** `method.version`: the engine's, and the model's name and version when one decides (semver build metadata). */
function methodVersion(c: CompiledTaxonomy): string {
  return c.model ? `${ENGINE_VERSION}+${c.model.name}.${c.model.version}` : `${ENGINE_VERSION}+rules`;
}

interface CacheEntry {
  key: string;
  text: string;
  rating: number;
  analysis: ReviewAnalysis;
}

/**
 * The insights engine. Pure: it reads only the view it is given, and `generated_at` is the view's
 * updatedAt, so the same view always gives a deep-equal document. Per-review analyses are cached by
 * review id + updated_at + taxonomy, so a recompute after a change only analyses the changed reviews.
 */
export function createInsightsEngine(options: InsightsEngineOptions = {}): InsightsEngine {
  const registry = createTaxonomyRegistry(options.taxonomies ?? []);
  const lineage = taxonomyLineage(options.taxonomies ?? []);
  const models = new Map<string, AbsaModel>();
  const modelFor = (id: string): AbsaModel | undefined => {
    const file = modelFileFor(options.models ?? [], lineage.get(id) ?? [id]);
    if (!file) return undefined;
    let m = models.get(file.taxonomy);
    if (!m) models.set(file.taxonomy, (m = loadAbsaModel(file)));
    return m;
  };
  const compiled = new Map<string, CompiledTaxonomy>();
  const cache = new Map<string, CacheEntry>();
  let run = { analyzed: 0, reused: 0, restored: 0 };
  const keyOf = (review: Review, c: CompiledTaxonomy) => `${c.taxonomy.id}\u0000${review.updated_at}`;
  // The text and rating (what an analysis reads) are compared too: an import that changed them without
  // moving updated_at must not serve a stale analysis.
  const cached = (review: Review, c: CompiledTaxonomy): ReviewAnalysis | undefined => {
    const hit = cache.get(review.id);
    return hit && hit.key === keyOf(review, c) && hit.text === review.text && hit.rating === review.rating ? hit.analysis : undefined;
  };

  function compiledFor(id: string): CompiledTaxonomy {
    let c = compiled.get(id);
    if (!c) {
      const taxonomy = registry.get(id) ?? registry.get(DEFAULT_TAXONOMY_ID);
      if (!taxonomy) throw new Error(`no taxonomy ${id}`);
      c = compileTaxonomy(taxonomy, modelFor(taxonomy.id));
      compiled.set(id, c);
    }
    return c;
  }

  function analysisOf(review: Review, c: CompiledTaxonomy, options: ComputeOptions): ReviewAnalysis {
    const hit = cached(review, c);
    if (hit) {
      run.reused += 1;
      return hit;
    }
    let analysis = options.restored?.get(review.id);
    if (analysis) run.restored += 1;
    else {
      run.analyzed += 1;
      analysis = analyzeReview(review, c);
      options.onAnalyzed?.(review, analysis);
    }
    cache.set(review.id, { key: keyOf(review, c), text: review.text, rating: review.rating, analysis });
    return analysis;
  }

  const taxonomyOf = (view: Pick<PublishedView, 'business'>) => view.business.taxonomy ?? DEFAULT_TAXONOMY_ID;

  return {
    lastRun: () => ({ ...run }),
    taxonomyOf,
    uncached(view) {
      const c = compiledFor(taxonomyOf(view));
      return view.reviews.filter((r) => !cached(r, c));
    },
    compute(view, options = {}) {
      run = { analyzed: 0, reused: 0, restored: 0 };
      const c = compiledFor(taxonomyOf(view));
      const items = view.reviews.map((review) => ({ review, analysis: analysisOf(review, c, options) }));
      // Forget reviews that left the published set (unpublished or deleted): nothing of theirs may remain.
      if (cache.size > items.length) {
        const live = new Set(view.reviews.map((r) => r.id));
        for (const id of cache.keys()) if (!live.has(id)) cache.delete(id);
      }
      const ctx: ReportContext = { taxonomy: c.taxonomy, items };
      const { aspects, reviewIds } = buildAspects(ctx);
      const entities = buildEntities(ctx, view.business);
      return {
        generated_at: view.updatedAt,
        review_count: view.reviews.length,
        method: { engine: ENGINE_NAME, version: methodVersion(c), taxonomy: c.taxonomy.id },
        aspects,
        entities,
        topics: buildTopics(ctx),
        faq: buildFaq(ctx, aspects, reviewIds, entities, view.business),
        summary: buildSummary(ctx, aspects),
      };
    },
  };
}

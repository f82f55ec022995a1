import { z } from 'zod';

/**
 * A cue is a token pattern matched against the lower-cased words of a sentence (and their lemmas, so
 * "call back" also matches "called back"). Syntax, space-separated:
 * - `word` a literal; `a|b|c` alternatives; `pre*` a prefix;
 * - `..` a gap of 0 to 3 tokens, `...` of 0 to 8; `?word` an optional token; `_` any one token;
 * - `#MONEY`, `#DURATION`, `#TIME`, `#DATE`, `#NUM` a token inside a wink-nlp entity of that type
 *   (or a number), `#CLOCK` a time of day ("10:15", "9am"), which is how implicit aspects ("showed up 2 hours late") find their evidence.
 */
export const CueSchema = z.string().min(1);

export const TaxonomyAspectSchema = z.object({
  id: z.string().min(1),
  label: z.string().min(1),
  /** Words that name the aspect without judging it ("price", "technician"). */
  cues: z.array(CueSchema).default([]),
  /** Cues that name the aspect and judge it ("overcharged", "on time"). Negation flips them. */
  positive: z.array(CueSchema).default([]),
  negative: z.array(CueSchema).default([]),
  /** Cues that name the aspect and say it was unremarkable ("about the going rate"). */
  neutral: z.array(CueSchema).default([]),
  /** A cue match that overlaps one of these is ignored ("honestly the best" is not honesty). */
  exclude: z.array(CueSchema).default([]),
  /** The question a prospective customer asks about this aspect, for the FAQ. */
  question: z.string().optional(),
});

export const TaxonomySchema = z
  .object({
    id: z.string().min(1),
    label: z.string().min(1),
    /** A builtin (or earlier) taxonomy this one adds cues to; aspects with the same id are merged. */
    extends: z.string().optional(),
    aspects: z.array(TaxonomyAspectSchema).default([]),
    /** Domain sentiment that generic lexicons miss ("never called back", "came back twice"). */
    sentiment: z
      .object({ positive: z.array(CueSchema).default([]), negative: z.array(CueSchema).default([]) })
      .default({ positive: [], negative: [] }),
    /**
     * Cues of the customer's own situation before the service ("our water bill doubled", "the AC died",
     * "stopped working"): a sentence with one, and no word aimed at the business or the work done, is
     * a description of the problem, not an opinion, and counts as neutral.
     */
    situation: z.array(CueSchema).optional(),
    /** Aspect given to an opinionated sentence no other aspect claims (SemEval's anecdotes/miscellaneous). */
    fallback_aspect: z.string().optional(),
    /** Polarity of an aspect mentioned without any sentiment in its sentence. */
    default_polarity: z.enum(['positive', 'neutral']).optional(),
    /** The aspect that receives implicit evidence from an arrival time against a booked window. */
    arrival_aspect: z.string().optional(),
    /** Evidence of at most this magnitude reads as neutral (tuned by cross-validation, see eval/). */
    neutral_band: z.number().min(0).optional(),
  })
  .meta({ id: 'Taxonomy' });
export type Taxonomy = z.infer<typeof TaxonomySchema>;
export type TaxonomyInput = z.input<typeof TaxonomySchema>;

/** Validates an operator's taxonomy file (already parsed from JSON). Throws a ZodError when invalid. */
export function parseTaxonomy(json: unknown): Taxonomy {
  return TaxonomySchema.parse(json);
}

/**
 * Resolves `extends` chains against the known taxonomies: the child's cues are appended to the
 * parent's aspect of the same id, new aspects are added, scalar settings are overridden.
 */
export function resolveTaxonomy(taxonomy: Taxonomy, known: ReadonlyMap<string, Taxonomy>, seen: string[] = []): Taxonomy {
  if (!taxonomy.extends) return taxonomy;
  if (seen.includes(taxonomy.id)) throw new Error(`taxonomy ${taxonomy.id}: circular extends`);
  const parentRaw = known.get(taxonomy.extends);
  if (!parentRaw) throw new Error(`taxonomy ${taxonomy.id}: unknown parent ${taxonomy.extends}`);
  const parent = resolveTaxonomy(parentRaw, known, [...seen, taxonomy.id]);
  const aspects = parent.aspects.map((a) => ({ ...a }));
  for (const child of taxonomy.aspects) {
    const base = aspects.find((a) => a.id === child.id);
    if (!base) {
      aspects.push(child);
      continue;
    }
    base.cues = [...base.cues, ...child.cues];
    base.positive = [...base.positive, ...child.positive];
    base.negative = [...base.negative, ...child.negative];
    base.neutral = [...base.neutral, ...child.neutral];
    base.exclude = [...base.exclude, ...child.exclude];
    if (child.question) base.question = child.question;
  }
  return {
    id: taxonomy.id,
    label: taxonomy.label,
    aspects,
    sentiment: {
      positive: [...parent.sentiment.positive, ...taxonomy.sentiment.positive],
      negative: [...parent.sentiment.negative, ...taxonomy.sentiment.negative],
    },
    ...(parent.situation || taxonomy.situation ? { situation: [...(parent.situation ?? []), ...(taxonomy.situation ?? [])] } : {}),
    fallback_aspect: taxonomy.fallback_aspect ?? parent.fallback_aspect,
    default_polarity: taxonomy.default_polarity ?? parent.default_polarity,
    neutral_band: taxonomy.neutral_band ?? parent.neutral_band,
    arrival_aspect: taxonomy.arrival_aspect ?? parent.arrival_aspect,
  };
}

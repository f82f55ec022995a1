import type { Taxonomy } from '../taxonomy.js';
import { IDIOMS_NEGATIVE, IDIOMS_POSITIVE } from '../sentiment/idioms.js';
import { CueMatcher } from './cue-matcher.js';
import type { AbsaModel } from '../model/absa-model.js';

export type CueKind = 'cue' | 'positive' | 'negative' | 'neutral' | 'exclude';

export interface AspectCue {
  type: 'aspect';
  aspect: string;
  kind: CueKind;
}
export interface SentimentCue {
  type: 'sentiment';
  value: number;
  /** Idioms carry their own negation ("couldn't be happier"); domain cues can still be negated. */
  negatable: boolean;
}
/** A cue of the customer's own problem before the service (see Taxonomy.situation). */
export interface SituationCue {
  type: 'situation';
}
export type CuePayload = AspectCue | SentimentCue | SituationCue;

/** A taxonomy turned into one matcher; built once per taxonomy and reused for every review. */
export interface CompiledTaxonomy {
  taxonomy: Taxonomy;
  matcher: CueMatcher<CuePayload>;
  /** The trained model that decides aspects and polarity; without one the cue rules decide. */
  model?: AbsaModel | undefined;
}

const DOMAIN_WEIGHT = 2;

export function compileTaxonomy(taxonomy: Taxonomy, model?: AbsaModel): CompiledTaxonomy {
  const matcher = new CueMatcher<CuePayload>();
  for (const a of taxonomy.aspects) {
    const lists: Array<[CueKind, readonly string[]]> = [
      ['cue', a.cues],
      ['positive', a.positive],
      ['negative', a.negative],
      ['neutral', a.neutral],
      ['exclude', a.exclude],
    ];
    for (const [kind, cues] of lists) {
      const payload: AspectCue = { type: 'aspect', aspect: a.id, kind };
      for (const cue of cues) matcher.add(cue, payload);
    }
  }
  const sentiment = (value: number, negatable: boolean): SentimentCue => ({ type: 'sentiment', value, negatable });
  const domainPositive = sentiment(DOMAIN_WEIGHT, true);
  const domainNegative = sentiment(-DOMAIN_WEIGHT, true);
  const idiomPositive = sentiment(DOMAIN_WEIGHT, false);
  const idiomNegative = sentiment(-DOMAIN_WEIGHT, false);
  for (const cue of taxonomy.sentiment.positive) matcher.add(cue, domainPositive);
  for (const cue of taxonomy.sentiment.negative) matcher.add(cue, domainNegative);
  for (const cue of IDIOMS_POSITIVE) matcher.add(cue, idiomPositive);
  for (const cue of IDIOMS_NEGATIVE) matcher.add(cue, idiomNegative);
  const situation: SituationCue = { type: 'situation' };
  for (const cue of taxonomy.situation ?? []) matcher.add(cue, situation);
  return { taxonomy, matcher, model };
}

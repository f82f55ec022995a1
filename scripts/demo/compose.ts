import type { Service, ServiceArea, Technician } from '../../src/domain/business.js';
import { ASPECT_SENTENCES, ASPECTS } from './aspect-sentences.js';
import { TECHNICIAN_TRADES } from './business.js';
import { AREA_SENTENCES, CLOSERS, GENERIC_TECH, OFFICE_INTROS, TECH_INTROS } from './phrases.js';
import type { Rating, Tone } from './phrases.js';
import type { Rng } from './prng.js';
import { SERVICE_STORIES } from './service-stories.js';

/** What one review is about: decided first, then written out by `composeText`. */
export interface ReviewPlan {
  rating: Rating;
  technician: Technician | null;
  service: Service | null;
  area: ServiceArea | null;
}

export interface ComposedText {
  text: string;
  /** True when some sentence is negative or mixed: a 4-star review with a complaint gets a different reply. */
  critical: boolean;
}

/** A template with the tone it was chosen for and the technician its {tech} stands for. */
interface Sentence {
  template: string;
  tone: Tone;
  tech: Technician | null;
}

const PRICES: Record<Tone, readonly string[]> = {
  positive: ['$129', '$189', '$245', '$310', '$95', '$165'],
  mixed: ['$350', '$425', '$390'],
  negative: ['$480', '$625', '$790', '$1,150'],
};

export function reviewTone(rating: Rating): Tone {
  if (rating >= 4) return 'positive';
  return rating === 3 ? 'mixed' : 'negative';
}

/** The tone of each aspect sentence: consistent with the rating, mixed for 3s and some 4s. */
function aspectTones(rng: Rng, rating: Rating, n: number): Tone[] {
  const tones: Tone[] = [];
  for (let i = 0; i < n; i++) {
    if (rating >= 4) tones.push('positive');
    else if (rating === 3) tones.push(i % 2 === 0 ? 'positive' : 'negative');
    else tones.push('negative');
  }
  if (rating === 4 && rng.chance(0.45)) tones[rng.int(0, n - 1)] = 'mixed';
  if (rating === 3) tones[0] = 'mixed';
  if (rating === 2 && n > 1 && rng.chance(0.4)) tones[0] = 'positive';
  return rng.shuffle(tones);
}

/**
 * Writes a review from its plan: the service opener, who came out (or who answered the phone), one to
 * five aspect sentences, maybe a line about the area, maybe a closer.
 */
export function composeText(rng: Rng, plan: ReviewPlan): ComposedText {
  const tone = reviewTone(plan.rating);
  const office = plan.technician !== null && TECHNICIAN_TRADES[plan.technician.id] === 'office';
  // The coordinator is named in her own sentence; "{tech}" elsewhere is whoever came out.
  const fieldTech = office ? null : plan.technician;
  const length = rng.weighted(plan.rating <= 2 ? { short: 2, medium: 4, long: 4 } : { short: 3, medium: 5, long: 2 });
  const n = length === 'short' ? 1 : length === 'medium' ? rng.int(2, 3) : rng.int(4, 5);

  const tones = aspectTones(rng, plan.rating, n);
  const body = rng
    .shuffle(ASPECTS)
    .slice(0, n)
    .map((aspect, i): Sentence => {
      const t = tones[i] ?? tone;
      return { template: rng.pick(ASPECT_SENTENCES[aspect][t]), tone: t, tech: fieldTech };
    });
  const sentence = (template: string, tech = fieldTech): Sentence => ({ template, tone, tech });

  const sentences: Sentence[] = [];
  if (plan.service) sentences.push(sentence(rng.pick(SERVICE_STORIES[plan.service.id]?.openers ?? [])));
  if (office) {
    sentences.push(sentence(rng.pick(OFFICE_INTROS[tone]), plan.technician));
  } else if (fieldTech && (!body.some((s) => s.template.includes('{tech}')) || rng.chance(0.3))) {
    sentences.push(sentence(rng.pick(TECH_INTROS[tone])));
  }
  sentences.push(...body);
  if (plan.area) {
    const line = sentence(rng.pick(AREA_SENTENCES[rng.chance(0.3) ? 'mixed' : tone]));
    if (rng.chance(0.4)) sentences.unshift(line);
    else sentences.push(line);
  }
  if (length !== 'short' && rng.chance(0.6)) sentences.push(sentence(rng.pick(CLOSERS[tone])));

  const filled = sentences.map((s) => capitalize(fill(rng, s, plan)));
  const critical = body.some((s) => s.tone !== 'positive');
  if (filled.length >= 6 && rng.chance(0.4)) {
    const half = Math.ceil(filled.length / 2);
    return { text: `${filled.slice(0, half).join(' ')}\n\n${filled.slice(half).join(' ')}`, critical };
  }
  return { text: filled.join(' '), critical };
}

function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** Substitutes the placeholders of one sentence. */
function fill(rng: Rng, { template, tone, tech }: Sentence, plan: ReviewPlan): string {
  return template.replace(/\{(tech|it|price|area)\}/g, (_, key: string) => {
    switch (key) {
      case 'tech':
        if (!tech) return rng.pick(GENERIC_TECH);
        return rng.chance(0.3) || tech.aliases.length === 0 ? tech.name : rng.pick(tech.aliases);
      case 'it':
        return plan.service ? (SERVICE_STORIES[plan.service.id]?.it ?? 'everything') : 'everything';
      case 'price':
        return rng.pick(PRICES[tone]);
      default:
        if (!plan.area) throw new Error(`area placeholder without an area: ${template}`);
        return rng.chance(0.2) && plan.area.aliases.length > 0 ? rng.pick(plan.area.aliases) : plan.area.name;
    }
  });
}

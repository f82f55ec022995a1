import type { Token } from '../nlp/wink.js';
import { LEXICON } from '../sentiment/lexicon.js';

const NOUNISH = new Set(['NOUN', 'ADJ', 'PROPN']);
/** Nouns too generic to make a topic on their own or as a head ("great job", "the guy"). */
const GENERIC = new Set(
  'job work thing things time times guy guys company business service people person day days way lot bit one ones home house place experience everything something anything review reviews star stars year years week weeks month months hour hours minute minutes morning afternoon evening today tomorrow yesterday'.split(
    ' ',
  ),
);

/**
 * Heads that name the customer's own people, rooms and house parts, or a time of year: "front door",
 * "elderly mother", "crawlspace entrance", "busy season" recur in reviews but are not about the
 * business or its service.
 */
const NOT_ABOUT_THE_BUSINESS = new Set(
  `mother father mom dad parent parents wife husband son daughter kid kids child children family baby neighbor neighbour
  friend friends guest guests dog dogs cat cats pet pets door doors entrance entry room kitchen basement bathroom bedroom
  garage attic crawlspace yard backyard driveway porch stair stairs staircase hallway hall wall walls ceiling floor floors
  carpet rug furniture couch closet window windows season weekend holiday holidays night summer winter spring fall
  birthday vacation snap wave weather storm heatwave`.split(/\s+/),
);

/** Adjectives that date or count a thing rather than name it ("new water heater" is the water heater). */
const NOT_NAMING = new Set(
  'new old older newer whole entire same first second third other last little big small large main extra left right'.split(' '),
);

/**
 * Noun phrases of two or three words ("water heater", "panel upgrade"): adjective and noun runs
 * ending in a noun, without opinion adjectives, so topics name things rather than verdicts.
 */
export function extractKeyPhrases(
  tokens: readonly Token[],
  spans: ReadonlyArray<[number, number]>,
): Array<{ phrase: string; sentence: number }> {
  const out: Array<{ phrase: string; sentence: number }> = [];
  spans.forEach(([from, to], sentence) => {
    let i = from;
    while (i < to) {
      if (!NOUNISH.has(tokens[i]?.pos ?? '')) {
        i++;
        continue;
      }
      let j = i;
      while (j < to && NOUNISH.has(tokens[j]?.pos ?? '')) j++;
      const run = tokens
        .slice(i, j)
        .filter(
          (t) =>
            /^[a-z][a-z-]*$/.test(t.norm) && t.pos !== 'PROPN' && !LEXICON.has(t.norm) && !LEXICON.has(t.lemma) && !NOT_NAMING.has(t.norm),
        );
      while (run.length > 0 && run[run.length - 1]?.pos !== 'NOUN') run.pop();
      const words = run.slice(-3);
      const head = words[words.length - 1];
      if (
        words.length >= 2 &&
        head &&
        !GENERIC.has(head.lemma) &&
        !NOT_ABOUT_THE_BUSINESS.has(head.lemma) &&
        !NOT_ABOUT_THE_BUSINESS.has(head.norm) &&
        words.every((w) => w.norm.length > 2)
      ) {
        const phrase = [...words.slice(0, -1).map((w) => w.norm), head.lemma].join(' ');
        out.push({ phrase, sentence });
      }
      i = j;
    }
  });
  return out;
}

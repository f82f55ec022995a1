/**
 * A general English opinion lexicon, written by hand for review text (not derived from any labelled
 * data). Scores: 1 mild, 2 clear, 3 strong. Domain phrases that these words miss ("never called back")
 * live in the taxonomies; this list is only what any review reader would call praise or complaint.
 */
const POSITIVE: Record<number, string> = {
  3: `amazing awesome excellent exceptional outstanding fantastic superb wonderful incredible phenomenal
      perfect perfectly flawless flawlessly impeccable brilliant stellar terrific fabulous magnificent
      spectacular best superior heavenly divine exquisite lifesaver lifesavers godsend top-notch a+ 10/10
      delicious mouthwatering scrumptious delectable heaven love loved loving adore adored`,
  2: `great good nice friendly helpful polite courteous respectful professional pleasant kind lovely
      happy glad pleased satisfied impressed impressive recommend recommended reliable dependable
      trustworthy honest fair reasonable affordable efficient thorough knowledgeable skilled skillful
      competent capable expert  quick fast prompt punctual responsive attentive patient
      careful neat tidy clean spotless fresh tasty yummy enjoy enjoyed enjoyable beautiful gorgeous
      charming cozy cosy comfortable relaxing romantic warm welcoming cheerful generous thoughtful
      considerate caring genuine sincere accommodating easy smooth seamless painless solid superb
      favorite favourite fave worth bargain steal gem pro pros wow yay thanks thank grateful appreciate
      appreciated appreciative kudos praise well-done quality quick-witted informative transparent
      upfront up-front diligent meticulous conscientious personable sweet wonderfully nicely beautifully
      fantastically excellently greatly highly awesome-sauce stress-free hassle-free reasonably fairly
      impressively quickly promptly efficiently properly correctly right fixed cool fun elegant classy
      authentic succulent tender juicy flavorful flavourful crisp crispy savory savoury rich hearty
      inviting intimate lively vibrant unpretentious gracious knowledgable efficent professionaly
      frendly helpfull excelent awsome recomend memorable unforgettable remarkable notable exceeded
      exceed exceeds refreshing innovative creative inventive unique terrific tastiest finest freshest
      friendliest nicest coolest greatest yummiest loveliest prettiest cleanest comfy homey homely
      homestyle soothing peaceful pleasantly pleasing pleasure delight delighted delightful delightfully
      satisfying satisfy hospitable welcoming warmly fabulously gem gems treasure winner winners
      champion spot-on impeccably marvelous marvellous splendid sublime luscious decadent indulgent
      addictive addicting crave craving fresh-tasting well-prepared well-made well-priced well-seasoned
      well-cooked beautifully generous generously ample plentiful huge hefty filling worthwhile
      recommendable affordably cheaply valuable incredible incredibly unbelievable amazingly
      outstandingly excellence superb superbly tremendous wonderful wonders awesomeness best-kept
      ideal perfection immaculate pristine efficiently smoothly swiftly attentively warmth courtesy
      friendliness kindness patience polished sophisticated stylish trendy upscale swanky posh quaint
      adorable cute lively vibrant buzzing inviting happy happily thrilled ecstatic excited eager`,
  1: `decent adequate better improved improve helped help like liked interesting clean
      calm quiet safe ready available clear clearly simple worked works working success successful
      resolved solved`,
};

const NEGATIVE: Record<number, string> = {
  3: `terrible horrible awful worst disgusting dreadful atrocious abysmal appalling pathetic useless
      nightmare disaster disastrous scam scammer scammers fraud fraudulent crook crooks criminal
      incompetent inedible unacceptable unprofessional disgrace disgraceful horrendous hate hated
      ripoff rip-off ripped furious outrageous insulting rudest avoid`,
  2: `bad poor rude unfriendly impolite disrespectful condescending arrogant dismissive nasty mean
      angry upset annoyed annoying frustrated frustrating frustration disappointed disappointing
      disappointment unhappy dissatisfied unreliable dishonest shady sketchy lazy sloppy careless messy
      dirty filthy gross broken broke damaged damage wrong mistake mistakes fail failed failure failing faulty defective late slow overpriced overcharge overcharged
      overcharging pricey expensive costly greedy pushy salesy aggressive hostile unhelpful unresponsive
      ignored ignore ignoring waste wasted wasting worse inferior mediocre bland tasteless stale soggy
      greasy burnt burned overcooked undercooked raw  lukewarm salty rubbery tough dry noisy loud
      cramped crowded stuffy smelly smelled stinks stink complain complained complaint complaints
      regret regretted sorry unfortunately unfortunate sadly sad lousy crappy crap sucks sucked suck
      shoddy subpar sub-par amateur amateurish clueless confused confusing inconvenient hassle lame
      lied lie lying liar liars cheated cheat cheating misled misleading deceptive hidden neglected
      forgot forgotten lost leaking leak leaks leaky flooded ruined ruin scratched cracked dented
      stained horrid icky meh ugh yuck dirt unclean uncomfortable unpleasant rushed inattentive
      inappropriate unexplained vague impossible crashing crashed crashes glitchy buggy lumpy nonexistent non-existent rudely poorly badly wrongly ridiculous absurd excessive exorbitant steep insane horrified
      horrifying overrated overhyped over-rated joke pits drawback drawbacks flavorless flavourless
      tasteless rubber rubbery chewy gummy mushy watery runny oily fatty gristly gristle fishy sour
      bitter burnt charred inconsistent inconsistency intimidating overwhelmed overwhelming gawky
      squeezed stressed refuse refused refuses apology apologize ghetto sloppily carelessly neglect
      neglectful negligent unattentive inattentively snotty snobby snobbish pretentious attitude
      obnoxious irritating irritated irritable annoyance disgusted disgust disgustingly revolting
      nauseating sick sickening ill vomit poisoning spoiled spoilt rotten moldy mouldy rancid expired
      thawed frozen microwaved reheated canned imitation fake artificial processed unappetizing
      unimpressive unimpressed uninspired uninspiring forgettable boring dull flat lifeless soulless
      sterile tacky cheesy dingy dank dumpy shabby rundown run-down worn grimy sticky stinky smelly
      cramped claustrophobic deafening blaring uncomfortable  drafty stuffy hot humid chaotic
      hectic disorganized disorganised unorganized understaffed overworked slowest slowly forever
      ages eternity waited hungry starving stingy skimpy meager meagre measly tiny puny paltry overpriced
      gouged cheated swindled scammed robbed insulted offended offensive outraged appalled shocked
      embarrassed embarrassing humiliated humiliating mistreated ignored neglected unwelcome unwelcoming
      hostile cold-shoulder unacceptable inexcusable unforgivable unbearable intolerable disrespected
      condescendingly arrogantly lame weak worst-ever downhill declined decline deteriorated mediocrity
      blah ho-hum so-so underwhelming underwhelmed disappoint disappoints letdown let-down unfortunate
      regrettable pity shame shameful unhappily angrily badly-run bland-tasting overcooked undercooked
      overdone underdone soggy limp greasy salty oversalted over-salted`,
  1: `limited missing boring average mediocre ordinary tired expected
      difficult hard unclear odd strange weird wait waited waiting`,
};

function build(groups: Record<number, string>, sign: 1 | -1, into: Map<string, number>): void {
  for (const [score, words] of Object.entries(groups)) {
    for (const w of words.split(/\s+/)) if (w) into.set(w, sign * Number(score));
  }
}

export const LEXICON: ReadonlyMap<string, number> = (() => {
  const m = new Map<string, number>();
  build(POSITIVE, 1, m);
  build(NEGATIVE, -1, m);
  return m;
})();

/** Words that scale the next opinion word. */
export const INTENSIFIERS: ReadonlyMap<string, number> = new Map([
  ...'very really so super extremely incredibly absolutely totally truly highly especially exceptionally remarkably seriously'
    .split(' ')
    .map((w) => [w, 1.5] as [string, number]),
  ...'quite pretty most more too'.split(' ').map((w) => [w, 1.25] as [string, number]),
  ...'slightly somewhat bit little fairly kinda sorta rather'.split(' ').map((w) => [w, 0.6] as [string, number]),
]);

/** Words that negate the opinion in the next few tokens. "n't" is normalised to "not" by wink-nlp. */
export const NEGATORS: ReadonlySet<string> = new Set(
  'not no never nobody nothing none nor neither without hardly barely nowhere cannot lack lacked lacking didnt dont doesnt wasnt werent isnt arent cant couldnt wouldnt wont shouldnt havent hasnt hadnt'.split(
    ' ',
  ),
);

/** Conjunctions after which the writer's verdict usually lies ("X, but Y" means Y counts). */
export const CONTRAST_AFTER: ReadonlySet<string> = new Set('but however yet though nevertheless nonetheless except'.split(' '));
/** Conjunctions that introduce the conceded side ("although X, Y" means Y counts). */
export const CONTRAST_BEFORE: ReadonlySet<string> = new Set('although while whereas despite'.split(' '));

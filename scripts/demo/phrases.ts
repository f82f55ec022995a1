/**
 * The rest of the review vocabulary: how a technician is introduced, how a service area comes up,
 * closing lines, one-line reviews, titles and reviewer names. As in aspect-sentences.ts, nothing here
 * names a catalog entry except through a placeholder: {tech}, {area}.
 */

/** Polarity of a sentence or of a whole review. */
export type Tone = 'positive' | 'negative' | 'mixed';

/** Rating 1..5 mapped to the tone its sentences mostly carry. */
export type Rating = 1 | 2 | 3 | 4 | 5;

/** How a review refers to a technician when it names nobody. */
export const GENERIC_TECH = ['the tech', 'the technician', 'the service tech', 'the tech they sent'] as const;

/** The "who came out" sentence of a review that names its technician. */
export const TECH_INTROS: Record<Tone, readonly string[]> = {
  positive: [
    '{tech} came out the same day.',
    'They sent {tech}, who was fantastic.',
    '{tech} was our technician and did a great job.',
    'Ask for {tech} if you can.',
    'We have had {tech} out a few times now and always get the same great service.',
    '{tech} took care of everything.',
  ],
  negative: ['They sent {tech}.', '{tech} was the one who came out.', 'The technician was {tech}.'],
  mixed: ['{tech} came out the next morning.', 'They sent {tech}.', 'Our technician was {tech}.'],
};

/** How a review names the service coordinator, whom customers meet on the phone, not at the door. */
export const OFFICE_INTROS: Record<Tone, readonly string[]> = {
  positive: [
    '{tech} in the office got us on the schedule within the hour.',
    '{tech} at the front desk was so helpful on the phone.',
    'Big thanks to {tech} in the office for keeping us posted all day.',
    '{tech} called the evening before to confirm, which was a nice touch.',
  ],
  negative: [
    '{tech} in the office promised a callback that never came.',
    'I spoke with {tech} at the front desk twice and got two different answers.',
  ],
  mixed: ['{tech} in the office was helpful, even if the wait for an appointment was long.'],
};

export const AREA_SENTENCES: Record<Tone, readonly string[]> = {
  positive: [
    'We live in {area} and they were here within the hour.',
    'Good to finally find a reliable company that comes out to {area}.',
    'Would recommend them to anyone in {area}.',
    'Several neighbors of ours in {area} use them too, and now I see why.',
    'They know the older houses in {area} well.',
  ],
  negative: [
    'Anyone in {area}: look elsewhere.',
    'We are out in {area}, and apparently that is too far for them to show up on time.',
    'Warning to my neighbors in {area}.',
  ],
  mixed: [
    'We live in {area}, about 20 minutes from their shop.',
    'Our house is in {area}.',
    'We are up in {area}.',
    'This was at our rental in {area}.',
    'We just moved to {area} and did not know who to call.',
  ],
};

export const CLOSERS: Record<Tone, readonly string[]> = {
  positive: [
    'Highly recommend!',
    'Will definitely use them again.',
    'Found our go-to company.',
    'Five stars, no question.',
    'Thank you so much!',
    '10/10.',
    'Already recommended them to friends.',
    'We will be calling them for everything from now on.',
  ],
  negative: [
    'Will not be using them again.',
    'Save yourself the headache and call someone else.',
    'Very disappointed.',
    'Buyer beware.',
    'I would give zero stars if I could.',
  ],
  mixed: [
    'Would probably use them again, but with lower expectations.',
    'Decent company, they just need to work on the follow-through.',
    'Not bad, not amazing.',
    'Hoping the next visit goes more smoothly.',
  ],
};

/** Whole reviews of a single line, by rating. */
export const ONE_LINERS: Record<Rating, readonly string[]> = {
  5: [
    'Great service, fair price.',
    'Fast, friendly and fixed it right.',
    'Could not be happier!',
    'Excellent work as always.',
    'Professional and on time. Highly recommend.',
    'Quick response and a great tech.',
    'The only company we call now.',
    'Honest people doing honest work.',
    'Lifesavers in the middle of a cold snap!',
    'Amazing!!',
    'Top notch.',
  ],
  4: [
    'Good work, a bit pricey.',
    'Solid job. Took a while to get an appointment.',
    'Good service overall.',
    'Did what they said they would do.',
    'Nice people, good work.',
  ],
  3: ['It was ok.', 'Fine, nothing special.', 'Work was fine but communication needs improvement.'],
  2: ['Not impressed.', 'Expensive and slow.', 'Took three visits to fix a simple problem.'],
  1: ['Terrible. Never again.', 'No-show twice. Do not bother.', 'Worst customer service I have ever dealt with.', 'Ripped off.'],
};

export const TITLES: Record<Rating, readonly string[]> = {
  5: [
    'Great service',
    'Fast and professional',
    'Lifesavers!',
    'Highly recommend',
    'Above and beyond',
    'Honest and fair',
    'Finally, a contractor you can trust',
    'Saved our weekend',
  ],
  4: ['Good work', 'Solid job, minor hiccups', 'Mostly great', 'Would use again'],
  3: ['Mixed experience', 'OK, not great', 'Good tech, frustrating office'],
  2: ['Disappointed', 'Not what I expected', 'Needs better follow-up'],
  1: ['Avoid', 'Terrible experience', 'Never again', 'Overcharged and ignored'],
};

export const FIRST_NAMES: readonly string[] = [
  'Jane Robert Maria David Linda James Patricia Chris Jennifer Daniel Karen Steve Angela Brian Lisa Jason',
  'Emily Kyle Megan Eric Rachel Greg Laura Anthony Nicole Justin Heather Ryan Amanda Scott Stephanie Brandon',
  'Melissa Aaron Rebecca Adam Kimberly Nathan Jessica Paul Carol Derek Olivia Ethan Hannah Luis Sofia Wei',
  'Aisha Omar Fatima Hiroshi Yuki Carlos Ana Dmitri Elena Noah Grace Marcus Tanya Trevor Bethany Colin',
  'Naomi Raj Deepa Zoe Victor Monica Gary Denise Harold Joyce Travis Brenda Chloé Björn Ines Peter',
].flatMap((line) => line.split(' '));

export const LAST_INITIALS = 'ABCDEFGHJKLMNOPRSTVWY';

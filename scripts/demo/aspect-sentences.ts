/**
 * Hand-written review sentences for the nine `home-services` aspects (insights.md), by polarity.
 * Placeholders: {tech} a technician (or "the tech" when the review names nobody), {it} the thing that
 * was worked on (or "everything"), {price} a dollar amount. These sentences never name a catalog entry
 * themselves: services, technicians and areas enter a review only through placeholders and openers.
 */
export const ASPECTS = [
  'punctuality',
  'professionalism',
  'communication',
  'price',
  'quality',
  'cleanliness',
  'expertise',
  'scheduling',
  'honesty',
] as const;
export type Aspect = (typeof ASPECTS)[number];

export interface AspectSentences {
  positive: readonly string[];
  negative: readonly string[];
  /** Both at once, for 3- and 4-star reviews ("great work, but the office never called back"). */
  mixed: readonly string[];
}

export const ASPECT_SENTENCES: Record<Aspect, AspectSentences> = {
  punctuality: {
    positive: [
      '{tech} showed up right at the start of the window.',
      'Arrived on time, actually a few minutes early.',
      'They gave us an 8-10 window and {tech} was in the driveway at 8:05.',
      'Got a text when {tech} was on the way, and the ETA was spot on.',
      'Punctual, which is more than I can say for the last two companies we tried.',
      'Showed up exactly when they said they would.',
      '{tech} was running a little behind and called ahead to let us know, which I appreciated.',
    ],
    negative: [
      '{tech} showed up 2 hours late and nobody called to say so.',
      'We were given a 12-4 window and nobody arrived until after 6.',
      'I took a day off work and waited all day. No-show, no call.',
      'Late to both appointments without a word of warning.',
      'They were supposed to come Tuesday morning, then it was Tuesday afternoon, then Wednesday.',
      'The tech arrived almost three hours after the window closed.',
    ],
    mixed: [
      'They were about an hour late, but the work itself was solid.',
      '{tech} did a nice job once they finally got here, almost two hours past the window.',
      'Good repair, but being late with no heads-up is not great when you have to leave for work.',
    ],
  },
  professionalism: {
    positive: [
      '{tech} was polite, friendly and very respectful of our home.',
      'Super courteous and patient with all of my questions.',
      '{tech} was great with our kids, who wanted to watch everything.',
      'Very professional from start to finish.',
      'Friendly, respectful, and clearly takes pride in the work.',
      '{tech} treated my elderly mother with a lot of patience and kindness.',
      'Pleasant to deal with, no attitude at all even though it was a Friday evening.',
      'You can tell this company hires good people.',
    ],
    negative: [
      '{tech} was rude and acted like my questions were a waste of time.',
      'The attitude was unbelievable. I was talked down to in my own house.',
      '{tech} spent half the visit on a personal phone call.',
      'Unprofessional from the moment they walked in.',
      'When I raised a concern, the response was basically "take it or leave it."',
      'The tech was dismissive and seemed annoyed to be here at all.',
    ],
    mixed: [
      '{tech} was friendly enough, but seemed rushed and in a hurry to get to the next job.',
      'Nice people, but the tech was on the phone a lot while working.',
    ],
  },
  communication: {
    positive: [
      '{tech} explained exactly what was wrong and showed me the worn part.',
      'The office kept us updated the whole time.',
      'Everything was explained in plain English, no jargon.',
      'Took the time to walk me through the options and what each one would cost.',
      'The office called back within ten minutes.',
      'I got a text with a photo of the tech before the visit, plus a written summary afterwards.',
      '{tech} answered every question I had without making me feel dumb.',
      'The woman who answered the phone was lovely and got us sorted quickly.',
    ],
    negative: [
      'The office never called back. I left three messages.',
      'Nobody could tell me what was actually wrong or what they had done.',
      'I had to call four times just to get an update.',
      'The invoice showed up with charges nobody had mentioned to us.',
      'Left voicemails and emails for a week and heard nothing.',
      'They said someone would follow up about the warranty claim. Nobody ever did.',
      'The person on the phone kept putting me on hold and then the call dropped.',
    ],
    mixed: [
      'Great work, but the office never called back about the follow-up visit.',
      '{tech} was easy to talk to, but getting anyone at the office on the phone was a struggle.',
      'The repair was fine, I just wish someone had explained what they were doing.',
    ],
  },
  price: {
    positive: [
      'The price was fair, {price} all in, which was less than I expected.',
      'They quoted {price} upfront and that is exactly what we paid.',
      'Not the cheapest quote we got, but worth every penny.',
      'Very reasonable pricing and no surprise fees.',
      'Good value for the money, and they waived the trip charge since we booked the repair.',
      'Honest flat-rate pricing, no nickel-and-diming.',
      'The quote was half of what another company wanted for the same job.',
    ],
    negative: [
      'We were charged {price} for what turned out to be a twenty-minute job.',
      'Way overpriced. I got a second quote afterwards for less than half.',
      'The final bill was {price}, nearly double the quote.',
      'They tacked on an "after-hours fee" even though it was 3 in the afternoon.',
      'I felt overcharged and the invoice was vague about what we were paying for.',
      'The diagnostic fee alone was ridiculous.',
    ],
    mixed: [
      'The work was good, but {price} felt steep for a single visit.',
      'Pricey, but they did fix it the same day, so I guess you pay for that.',
      'Fair price for the repair, but the trip charge should have been mentioned on the phone.',
    ],
  },
  quality: {
    positive: [
      '{it} has been perfect ever since.',
      'Fixed right the first time.',
      'Months later and still no problems at all.',
      'Excellent workmanship, everything is neat and labeled.',
      '{tech} did a really thorough job and tested everything before leaving.',
      'The repair has held up through a whole season.',
      'Best quality work we have had from any contractor in this house.',
    ],
    negative: [
      'Two days later {it} was acting up again.',
      'They had to come back twice and it still is not right.',
      'The repair failed within a week.',
      'Sloppy work. We had to pay someone else to redo it.',
      'The same problem came back the following month.',
      'A week after the visit we found water on the floor where they had been working.',
    ],
    mixed: [
      'It took a second visit to get it fully fixed, but they did not charge for the return trip.',
      'The fix worked, though the finish work was a little rough around the edges.',
    ],
  },
  cleanliness: {
    positive: [
      '{tech} wore shoe covers and laid down drop cloths without being asked.',
      'Left the place cleaner than it was before they came.',
      'Very tidy, cleaned up every bit of mess before leaving.',
      'Not a speck of dust left behind, even in the crawlspace entrance.',
      'Put down floor protection all the way from the front door, which I really appreciated.',
    ],
    negative: [
      'Left a mess: muddy boot prints across the carpet and old parts in the yard.',
      'No shoe covers, and they tracked dirt through the whole house.',
      'We spent an hour cleaning up after they left.',
      'They left the old unit sitting in our driveway for a week.',
      'Drywall dust everywhere and the cut-out pieces just left on the floor.',
    ],
    mixed: [
      'Good job overall, but they left a bit of a mess in the garage.',
      'They were careful inside, though the old parts were left by the side of the house.',
    ],
  },
  expertise: {
    positive: [
      '{tech} diagnosed the problem in about ten minutes.',
      'Really knows their stuff. Found an issue two other companies missed.',
      'Very knowledgeable and clearly has years of experience.',
      '{tech} figured out it was one worn-out part, not the whole thing, and saved us a fortune.',
      'You can tell {tech} has seen it all. Zero guesswork.',
      'Knew exactly what the problem was within minutes of walking in.',
    ],
    negative: [
      '{tech} seemed to be guessing and swapped parts until something worked.',
      'The tech did not seem to know what they were doing and kept calling someone for help.',
      'Misdiagnosed the problem completely. A different company found the real issue in five minutes.',
      'Felt like we were paying for on-the-job training.',
      'After two hours the diagnosis was "could be a few things."',
    ],
    mixed: [
      'It took a while to figure out the problem, but {tech} got there in the end.',
      'Knowledgeable tech, but the first diagnosis was wrong and cost us an extra visit.',
    ],
  },
  scheduling: {
    positive: [
      'Called at 8 in the morning and had someone here by lunch.',
      'Same-day service on a Saturday, which was a lifesaver.',
      'Booking online took two minutes and they had an opening the next morning.',
      'They squeezed us in the same afternoon during their busiest week of the year.',
      'Easy to schedule, and they worked around my crazy hours.',
      'Got an appointment for the next day even though it was their busy season.',
    ],
    negative: [
      'The earliest appointment they could offer was nine days out.',
      'They cancelled the morning of the appointment and rescheduled us for a week later.',
      'Tried to book for three days and kept getting voicemail.',
      'Said they offered same-day service, but when I called there was nothing for a week.',
      'Our appointment got moved twice without anyone asking us.',
    ],
    mixed: [
      'We waited four days for an appointment, but once they came, the job got done quickly.',
      'Hard to get on the schedule, but worth the wait.',
    ],
  },
  honesty: {
    positive: [
      'No upselling, no pressure. {tech} told us we did not need a new system yet.',
      'Honest and transparent. They showed me photos of everything before and after.',
      'Could easily have sold us a replacement, but fixed the part for a fraction of the cost instead.',
      'Trustworthy people. I would let them in the house when we are not home.',
      '{tech} talked me out of an add-on I did not need.',
      'Straight answers and fair options, which is rare in this business.',
    ],
    negative: [
      'The whole visit felt like a sales pitch for a brand-new system.',
      '{tech} tried to tell us the entire unit had to be replaced. A second opinion said it was a $40 part.',
      'High-pressure upselling. I felt like I was buying a used car.',
      'They claimed parts were replaced that were clearly the old ones.',
      'Kept pushing a membership I did not want.',
    ],
    mixed: [
      'The repair was fine, but there was more upselling than I would like.',
      'Honest about what we needed, though the salesy follow-up calls got old.',
    ],
  },
};

/**
 * Owner replies. Placeholders: {name} the reviewer's first name, {techFirst} the technician's first
 * name (only in the `named` lists, used when the review names one). Replies are not scanned for
 * mentions (contract §2 scans title and text only), so they may name anyone.
 */
export interface ReplySet {
  named: readonly string[];
  plain: readonly string[];
}

export const REPLIES: Record<'positive' | 'mixed' | 'negative', ReplySet> = {
  positive: {
    named: [
      'Thank you, {name}! {techFirst} will be thrilled to hear this. We appreciate you trusting us with your home.',
      'Thanks {name}! I shared your review with {techFirst} at our morning meeting. Reviews like this make our day.',
      '{name}, thank you for the kind words about {techFirst}. We are lucky to have such a great team.',
      'We really appreciate this, {name}. {techFirst} is one of our best, and it shows!',
    ],
    plain: [
      'Thank you, {name}! We are glad we could help and appreciate you taking the time to leave a review.',
      'Thanks so much, {name}. It was a pleasure working with you, and we are here whenever you need us.',
      'We appreciate the five stars, {name}! See you at your next tune-up.',
      'Thank you for choosing a local, family-owned company, {name}. It means a lot to us.',
      'Glad everything is working again, {name}. Thanks for the great review!',
      'Thanks {name}! Happy to hear it went smoothly.',
    ],
  },
  mixed: {
    named: [
      'Thanks for the honest feedback, {name}. I have shared it with {techFirst} and the rest of the team, and we are taking it to heart.',
      '{name}, thank you. I passed your comments on to {techFirst} and to our dispatch team. We want every part of the visit to be as good as the repair.',
    ],
    plain: [
      'Thank you for the feedback, {name}. We are glad the problem is fixed, and we are sorry the rest of the experience fell short. We have shared this with our office team.',
      'Hi {name}, thanks for letting us know how it went. We read every review as a team, and this one gives us something to work on.',
      '{name}, we appreciate you giving us a chance and telling us what we can do better. Please reach out directly if anything else comes up.',
    ],
  },
  negative: {
    named: [
      '{name}, I am sorry about your experience. This is not the standard we hold {techFirst} or anyone on our team to. Please call me directly at 303-555-0142 so I can make it right.',
      'Hi {name}, I have read your review and spoken with {techFirst}. I would like to hear your side too. Please call or email the office and ask for me.',
    ],
    plain: [
      '{name}, I am very sorry. This is not how we want anyone to feel after a visit. Please call me directly at 303-555-0142 so we can make this right.',
      'Hi {name}, we take this seriously. I looked into your service call and would like to discuss a refund. Please reach out to the office at your convenience.',
      'We are sorry to hear this, {name}. We tried to reach you by phone but could not get through. Please contact us so we can resolve this.',
      '{name}, thank you for the feedback, even though it is hard to read. We have changed how we confirm appointments because of reviews like yours.',
      'Hi {name}, we were unable to find a service record under your name. Could you call the office so we can look into what happened?',
    ],
  },
};

/** Sign-offs, the empty one meaning the reply ends without one. */
export const SIGN_OFFS = ['', ' - Dana, owner', ' - Dana Halvorsen, Owner', ' - The Summit Ridge team'] as const;

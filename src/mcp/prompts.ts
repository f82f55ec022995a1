/**
 * Prompts (MCP 2025-11-25 §Prompts): ready-made questions a user can pick in a client, each steering
 * the assistant to the tools that answer it.
 */
export const PROMPTS = [
  {
    name: 'customer_feedback',
    title: 'What do customers say?',
    description: 'Summarize what customers say about the business, or about one service, technician or topic.',
    arguments: [
      {
        name: 'about',
        description: 'A service, technician or topic (for example "drain cleaning", "Mike", "price"); leave empty for the whole business.',
        required: false,
      },
    ],
  },
  {
    name: 'whats_new',
    title: 'What is new?',
    description: 'The reviews written since a date, summarized.',
    arguments: [{ name: 'since', description: 'A date, YYYY-MM-DD.', required: true }],
  },
];

function userMessage(text: string) {
  return { messages: [{ role: 'user' as const, content: { type: 'text' as const, text } }] };
}

export function renderPrompt(name: string, args: Record<string, string>) {
  const prompt = PROMPTS.find((p) => p.name === name);
  if (!prompt) return undefined;
  if (name === 'whats_new') {
    const since = args.since ?? '';
    return {
      description: prompt.description,
      ...userMessage(
        `Call get_reviews_since with date ${JSON.stringify(since)} and summarize the new reviews (its total says how many; follow next_cursor for the pages after the first): how many, the rating spread, what was praised, what was criticised, and any owner replies. Quote short passages.`,
      ),
    };
  }
  const about = args.about?.trim();
  const focus = about
    ? `about ${JSON.stringify(about)}: use get_business to map it to a service id or technician, then search_reviews with mentions_service, mentions_technician or query, and get_insights for the matching aspect or entity`
    : 'about the business as a whole: use get_business for the rating and get_insights for aspects, topics and the summary';
  return {
    description: prompt.description,
    ...userMessage(`Summarize what customers say ${focus}. Say how many reviews each point rests on and quote short passages.`),
  };
}

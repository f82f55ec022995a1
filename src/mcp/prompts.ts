import type { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';

const ask = (text: string) => ({ messages: [{ role: 'user' as const, content: { type: 'text' as const, text } }] });
// Made once: an instance, and so its prompts, is made for every request.
const About = z.object({
  about: z.string().optional().describe('A service, technician or topic ("drain cleaning", "Mike", "price"); none: the business.'),
});
const Since = z.object({ since: z.string().describe('A date, YYYY-MM-DD.') });

/** Prompts (MCP 2025-11-25 §Prompts): ready-made questions, each steering the assistant to the tools that answer it. */
export function registerPrompts(server: McpServer): void {
  const description = 'Summarize what customers say about the business, or about one service, technician or topic.';
  server.registerPrompt('customer_feedback', { title: 'What do customers say?', description, argsSchema: About }, ({ about }) =>
    ask(
      about?.trim()
        ? `Summarize what customers say about ${JSON.stringify(about.trim())}: use get_business to map it to a service id or technician, then search_reviews with mentions_service, mentions_technician or query, and get_insights for the matching aspect or entity. Say how many reviews each point rests on and quote short passages.`
        : 'Summarize what customers say about the business as a whole: use get_business for the rating and get_insights for aspects, topics and the summary. Say how many reviews each point rests on and quote short passages.',
    ),
  );
  const whatsNew = { title: 'What is new?', description: 'The reviews written since a date, summarized.', argsSchema: Since };
  server.registerPrompt('whats_new', whatsNew, ({ since }) =>
    ask(
      `Call get_reviews_since with date ${JSON.stringify(since)} and summarize the new reviews (its total says how many; follow next_cursor for the pages after the first): how many, the rating spread, what was praised, what was criticised, and any owner replies. Quote short passages.`,
    ),
  );
}

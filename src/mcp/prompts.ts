import type { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';

// Made once: an instance, and its prompts, are made for every request.
const AboutArguments = z.object({
  about: z
    .string()
    .optional()
    .describe('A service, technician or topic (for example "drain cleaning", "Mike", "price"); leave empty for the whole business.'),
});
const SinceArguments = z.object({ since: z.string().describe('A date, YYYY-MM-DD.') });

const ask = (text: string) => ({ messages: [{ role: 'user' as const, content: { type: 'text' as const, text } }] });

/**
 * Prompts (MCP 2025-11-25 §Prompts): ready-made questions a user can pick in a client, each steering
 * the assistant to the tools that answer it.
 */
export function registerPrompts(server: McpServer): void {
  server.registerPrompt(
    'customer_feedback',
    {
      title: 'What do customers say?',
      description: 'Summarize what customers say about the business, or about one service, technician or topic.',
      argsSchema: z.object({
        about: z
          .string()
          .optional()
          .describe('A service, technician or topic (for example "drain cleaning", "Mike", "price"); leave empty for the whole business.'),
      }),
    },
    ({ about }) => {
      const focus = about?.trim()
        ? `about ${JSON.stringify(about.trim())}: use get_business to map it to a service id or technician, then search_reviews with mentions_service, mentions_technician or query, and get_insights for the matching aspect or entity`
        : 'about the business as a whole: use get_business for the rating and get_insights for aspects, topics and the summary';
      return ask(`Summarize what customers say ${focus}. Say how many reviews each point rests on and quote short passages.`);
    },
  );
  server.registerPrompt(
    'whats_new',
    {
      title: 'What is new?',
      description: 'The reviews written since a date, summarized.',
      argsSchema: SinceArguments,
    },
    ({ since }) =>
      ask(
        `Call get_reviews_since with date ${JSON.stringify(since)} and summarize the new reviews (its total says how many; follow next_cursor for the pages after the first): how many, the rating spread, what was praised, what was criticised, and any owner replies. Quote short passages.`,
      ),
  );
}

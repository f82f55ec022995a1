/**
 * Server `instructions` (MCP 2025-11-25 §Lifecycle, InitializeResult; 2026-07-28 server/discover):
 * what an assistant should know before it picks a tool.
 */
export function serverInstructions(businessName: string): string {
  return [
    `Verified customer reviews of ${businessName}, a local business, and insights computed from them. Read-only and public: nothing here changes data.`,
    'Use it to answer questions about what customers say: how good the business is at something, which technician or service is praised or criticised, what is new, what people ask.',
    'Tools:',
    '- get_business: the business profile (contact, hours, services, technicians, service areas) and its aggregate rating. Call it first to learn the ids and names the other tools accept.',
    '- search_reviews: reviews filtered by rating, min_rating, since/until dates, query text, mentions_technician (id, name or alias) or mentions_service (a service id); sort newest|oldest|highest|lowest; page with next_cursor.',
    '- get_review: one review by id.',
    '- get_reviews_since: reviews on or after a date (what is new), 20 per page by default; page with next_cursor.',
    '- get_insights: aspect sentiment, mentioned entities, topics, FAQ and a summary, without evidence review ids unless include_review_ids is true; pass section for one part.',
    'Answers are paged to fit a context window: search_reviews and get_reviews_since take fields (e.g. ["id","rating","text"]) to return only those review fields.',
    'Quote reviews faithfully and say how many reviews a claim rests on. The same data is served as REST, JSON Feed and Atom; the four documents are also readable as resources.',
  ].join('\n');
}

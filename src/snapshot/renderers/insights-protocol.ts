import type { PublishedView } from '../../domain/published-view.js';

/** Messages between the server and its insights worker (structured-clone safe: no functions). */
export interface InsightsRequest {
  id: number;
  view: Omit<PublishedView, 'urls'>;
  baseUrl: string;
}

export type InsightsReply = { id: number; ok: true; body: string } | { id: number; ok: false; error: string };

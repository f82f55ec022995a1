import type { PublishedView } from '../../domain/published-view.js';
import type { ReviewBytes } from '../review-bytes.js';
import type { TimeSlicer } from '../time-slice.js';

/** What a renderer reads: the published view, and each review's JSON already serialized once. */
export interface RenderInput {
  view: PublishedView;
  /** Each published review's JSON, in the view's newest-first order, inside the `/reviews.json` document. */
  reviewBytes: ReviewBytes;
  /** Where a renderer of large documents yields to the event loop, so requests are not stalled; absent: never. */
  slicer?: TimeSlicer;
  /**
   * Nothing waits for this rendering: the snapshot serves an earlier document meanwhile (a slow one
   * carried over). Its CPU may yield to what does wait, such as a WebSub fan-out.
   */
  background?: boolean;
}

export interface RenderOutput {
  body: string | Buffer;
  lastModified: string;
  /**
   * A hash of everything the body was computed from (slow renderers that can skip unchanged work); absent
   * when the body was read from the document cache, which holds it already (another replica rendered it).
   */
  inputHash?: string;
}

interface RendererBase {
  /** The document's name in the snapshot (`reviews.json`, `insights.json`, `feed.json`, `feed.xml`). */
  name: string;
  contentType: string;
}

/** Milliseconds of work: rendered while the snapshot is built, before it is published. */
export interface FastRenderer extends RendererBase {
  kind: 'fast';
  render(input: RenderInput): RenderOutput | Promise<RenderOutput>;
}

/**
 * Seconds of work (insights at 10k reviews): rendered off the publication path. A new snapshot carries the
 * previous snapshot's document until this one lands (snapshot.ts), so no request waits for it. A rendering
 * that was only waiting for another replica's may end with `RenderSuperseded` once a newer one begins.
 */
export interface SlowRenderer extends RendererBase {
  kind: 'slow';
  render(input: RenderInput): Promise<RenderOutput>;
}

/**
 * A background rendering given up because a newer rendering of the same document began (with
 * replicas: a replica waiting for another's document stops waiting for an outdated one). Not a failure:
 * the snapshot keeps its document until the newer one lands.
 */
export class RenderSuperseded extends Error {
  constructor(name: string) {
    super(`${name}: superseded by a newer rendering`);
    this.name = 'RenderSuperseded';
  }
}

/** A whole-document renderer, run once per snapshot (style.md: store → snapshot → renderers → transports). */
export type DocumentRenderer = FastRenderer | SlowRenderer;

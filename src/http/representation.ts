import type { FastifyReply, FastifyRequest } from 'fastify';
import { codedEtag, type ContentCoding, type Representation } from '../snapshot/rendered-document.js';
import { isNotModified } from './conditional.js';
import { negotiateCoding } from './negotiation.js';

// Data changes rarely and revalidation is a cheap 304, so shared caches may keep a response briefly.
export const CACHE_CONTROL = 'public, max-age=60';
// Compressing a few hundred bytes costs more than it saves.
const MIN_COMPRESS_BYTES = 1024;

/** The coding a response of `rep` uses for this Accept-Encoding; null for identity. */
export function codingFor(rep: Representation, acceptEncoding: string | undefined): ContentCoding | null {
  return rep.body.length >= MIN_COMPRESS_BYTES ? negotiateCoding(acceptEncoding) : null;
}

// Formatted once per timestamp: a Date and its string cost more than the rest of a 304 (issue 15), and
// every query answer of a snapshot carries the snapshot's publication time, so the last one is kept.
let lastDate = { ms: Number.NaN, text: '' };

/** Last-Modified of a representation as an HTTP date (RFC 9110 §5.6.7). */
export function httpDate(rep: Pick<Representation, 'lastModified'>): string {
  if (lastDate.ms !== rep.lastModified) lastDate = { ms: rep.lastModified, text: new Date(rep.lastModified).toUTCString() };
  return lastDate.text;
}

/**
 * `leading` (CORS, Link), then the caching headers sendRepresentation writes before the ETag, in its
 * order: what a 200 and a 304 of `rep` built ahead of the request (the fast paths) start with.
 */
export function cachingHeaders(
  rep: Pick<Representation, 'lastModified'>,
  leading: Readonly<Record<string, string>>,
  vary: string,
): Record<string, string> {
  return { ...leading, vary, 'cache-control': CACHE_CONTROL, 'last-modified': httpDate(rep) };
}

/**
 * Headers as node:http's flat list, `[name, value, name, value, ...]` in the object's order, which
 * `writeHead` takes as it is: the same header block, without a for-in over an object per answer. Per
 * answer, a list is also what can be extended cheaply: on Node 20 (V8 11.3), a spread object with
 * more keys after it, `{ ...headers, etag }`, took 12-17 µs a call where `[...list, 'etag', etag]` takes
 * 0.07 µs (measured in a loop on the bench host); it was a tenth of a first-time search's CPU (issue 15).
 */
export type HeaderList = string[];

/** `headers` as a HeaderList; the lists built here are shared by many answers, so never changed. */
export function headerList(headers: Readonly<Record<string, string>>): HeaderList {
  const list: string[] = [];
  for (const [name, value] of Object.entries(headers)) list.push(name, value);
  return list;
}

export type NotModifiedHeaders = Record<ContentCoding | 'identity', Readonly<Record<string, string>>>;

/** NotModifiedHeaders as lists (HeaderList), for answers written by the fast paths. */
export type NotModifiedHeaderLists = Record<ContentCoding | 'identity', HeaderList>;

/**
 * The headers of a 304 for `rep`, one set per coding: `leading` (CORS, Link), then what
 * sendRepresentation sends with its 304, in the same order. RFC 9110 §15.4.5: the 304 carries the
 * ETag, Vary and Cache-Control a 200 would, and Last-Modified as sent today.
 */
export function notModifiedHeaders(rep: Representation, leading: Readonly<Record<string, string>>, vary: string): NotModifiedHeaders {
  const common = cachingHeaders(rep, leading, vary);
  return {
    identity: { ...common, etag: rep.etag },
    gzip: { ...common, etag: codedEtag(rep.etag, 'gzip') },
    br: { ...common, etag: codedEtag(rep.etag, 'br') },
  };
}

/**
 * Sends a representation with its validators, answering 304 when the request's conditions match,
 * compressing when asked. HEAD gets the same headers as GET with no body (RFC 9110 §9.3.2).
 */
export async function sendRepresentation(request: FastifyRequest, reply: FastifyReply, rep: Representation): Promise<FastifyReply> {
  const coding = codingFor(rep, request.headers['accept-encoding']);
  // A route that also negotiates the media type has already said `Vary: Accept, Accept-Encoding`.
  if (!reply.hasHeader('Vary')) reply.header('Vary', 'Accept-Encoding');
  reply.header('Cache-Control', CACHE_CONTROL);
  reply.header('Last-Modified', httpDate(rep));
  const notModified = isNotModified(request.headers, rep);
  if (notModified) {
    reply.header('ETag', coding ? codedEtag(rep.etag, coding) : rep.etag);
    return reply.code(304).send();
  }
  reply.type(rep.contentType);
  if (!coding) {
    reply.header('ETag', rep.etag);
    return reply.send(rep.body);
  }
  const variant = await rep.encoded(coding);
  reply.header('ETag', variant.etag);
  reply.header('Content-Encoding', coding);
  return reply.send(variant.body);
}

import type { FastifyReply, FastifyRequest } from 'fastify';
import { codedEtag, type Representation } from '../snapshot/rendered-document.js';
import { isNotModified } from './conditional.js';
import { negotiateCoding } from './negotiation.js';

// Data changes rarely and revalidation is a cheap 304, so shared caches may keep a response briefly.
export const CACHE_CONTROL = 'public, max-age=60';
// Compressing a few hundred bytes costs more than it saves.
const MIN_COMPRESS_BYTES = 1024;

/**
 * Sends a representation with its validators, answering 304 when the request's conditions match,
 * compressing when asked. HEAD gets the same headers as GET with no body (RFC 9110 §9.3.2).
 */
export async function sendRepresentation(request: FastifyRequest, reply: FastifyReply, rep: Representation): Promise<FastifyReply> {
  const coding = rep.body.length >= MIN_COMPRESS_BYTES ? negotiateCoding(request.headers['accept-encoding']) : null;
  // A route that also negotiates the media type has already said `Vary: Accept, Accept-Encoding`.
  if (!reply.hasHeader('Vary')) reply.header('Vary', 'Accept-Encoding');
  reply.header('Cache-Control', CACHE_CONTROL);
  reply.header('Last-Modified', new Date(rep.lastModified).toUTCString());
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

/**
 * RFC 4287 §7 registers application/atom+xml; the charset names the encoding we write (contract §4).
 * A module of its own, so the routes name it without loading the Atom writer and its XML builder,
 * which load only when a feed is rendered (start-up time).
 */
export const ATOM_MEDIA_TYPE = 'application/atom+xml; charset=utf-8';

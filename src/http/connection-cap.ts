import type { Server } from 'node:http';
import type { Socket } from 'node:net';

const BUSY_BODY = JSON.stringify({
  type: 'urn:review-data:problem:unavailable',
  title: 'Service unavailable',
  status: 503,
  detail: 'Too many open connections from your address; close some and retry.',
  code: 'unavailable',
});
const BUSY =
  `HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json; charset=utf-8\r\n` +
  `Content-Length: ${Buffer.byteLength(BUSY_BODY)}\r\nRetry-After: 5\r\nAccess-Control-Allow-Origin: *\r\n` +
  `Connection: close\r\n\r\n${BUSY_BODY}`;

/**
 * At most `max` open connections per client address (0: no cap). One client holding a thousand slow
 * connections used to take every file descriptor; past the cap a connection gets a 503
 * problem and is closed, before any of its bytes are parsed. Counted on the socket's peer address: behind
 * a proxy every client shares the proxy's, so set the cap to 0 there and let the proxy limit clients.
 */
export function capConnectionsPerAddress(server: Server, max: number): void {
  if (max <= 0) return;
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? 'unknown';
    const n = (open.get(address) ?? 0) + 1;
    if (n > max) {
      socket.end(BUSY);
      // A client that does not read its answer must not keep the slot either.
      socket.setTimeout(2000, () => socket.destroy());
      return;
    }
    open.set(address, n);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left <= 0) open.delete(address);
      else open.set(address, left);
    });
  });
}

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

const WAITING = Symbol('review-data pipelined requests waiting');
const PAUSED = Symbol('review-data paused by the gate');
type GatedSocket = Socket & { [WAITING]?: number; [PAUSED]?: boolean };

/**
 * One answer in flight per connection. HTTP/1.1 lets a client send requests without waiting for the
 * answers (pipelining, RFC 9112 §9.3.2), and node:http parses and emits every request of a packet at
 * once: a client that pipelined 100 requests for large answers and never read made the server build
 * all 100 (4 GB in the red team's test). node:http gives a pipelined request's response its socket only
 * once the previous response of the connection has finished (been handed to the socket); until then
 * `response.socket` is null. Such a request is handled when its response gets the socket (its 'socket'
 * event), so a connection computes and holds one answer at a time; past `maxWaiting` waiting requests
 * the connection is not read until they are answered. A request on a connection with nothing in flight
 * (every request but a pipelined one) is handled at once, at no cost. A connection whose answer stops
 * moving is closed by the writer's timeout (prepared-response.ts), and what waited goes with it.
 */
export function gateConnections(handle: Handler, maxWaiting: number): Handler {
  return (request, response) => {
    if (response.socket !== null) return handle(request, response);
    const socket = request.socket as GatedSocket;
    const waiting = (socket[WAITING] ?? 0) + 1;
    socket[WAITING] = waiting;
    if (waiting > maxWaiting && !socket[PAUSED]) {
      socket[PAUSED] = true;
      socket.pause();
    }
    response.once('socket', () => {
      const left = socket[WAITING]! - 1;
      socket[WAITING] = left;
      // Only a pause of its own: node:http pauses and resumes the socket for reasons of its own too.
      if (socket[PAUSED] && left <= maxWaiting / 2) {
        socket[PAUSED] = false;
        socket.resume();
      }
      handle(request, response);
    });
  };
}

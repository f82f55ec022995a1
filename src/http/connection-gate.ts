import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

interface Gate {
  /** An answer of this connection is being computed or written. */
  busy: boolean;
  /** Requests that arrived meanwhile (pipelined), in order. */
  waiting: [IncomingMessage, ServerResponse][];
  /** This gate stopped reading the connection (node:http pauses and resumes it for reasons of its own). */
  paused: boolean;
}

const GATE = Symbol('review-data connection gate');
type GatedSocket = Socket & { [GATE]?: Gate };

/**
 * One answer in flight per connection. HTTP/1.1 lets a client send requests without waiting for the
 * answers (pipelining, RFC 9112 §9.3.2), and node:http parses and emits every request of a packet at
 * once: a client that pipelines 100 requests for large answers and never reads used to make the server
 * build all 100 (4 GB in the red team's test). Here a request that arrives while its connection's
 * previous answer is still being computed or written waits until that answer has been handed to the
 * socket (its 'finish'), so a connection holds one answer at a time; past `maxWaiting` waiting
 * requests the connection is not read from until they are answered. A connection whose answer stops
 * moving is closed by the writer's timeout (prepared-response.ts), and what waited goes with it.
 */
export function gateConnections(handle: Handler, maxWaiting: number): Handler {
  const run = (socket: GatedSocket, gate: Gate, request: IncomingMessage, response: ServerResponse) => {
    gate.busy = true;
    let done = false;
    const next = () => {
      if (done) return;
      done = true;
      response.off('finish', next);
      response.off('close', next);
      if (socket.destroyed) {
        gate.waiting.length = 0;
        gate.busy = false;
        return;
      }
      const item = gate.waiting.shift();
      if (gate.paused && gate.waiting.length <= maxWaiting / 2) {
        gate.paused = false;
        socket.resume();
      }
      if (!item) {
        gate.busy = false;
        return;
      }
      run(socket, gate, item[0], item[1]);
    };
    response.once('finish', next);
    response.once('close', next);
    handle(request, response);
  };
  return (request, response) => {
    const socket = request.socket as GatedSocket;
    let gate = socket[GATE];
    if (!gate) socket[GATE] = gate = { busy: false, waiting: [], paused: false };
    if (!gate.busy) return run(socket, gate, request, response);
    gate.waiting.push([request, response]);
    if (gate.waiting.length > maxWaiting && !gate.paused) {
      gate.paused = true;
      socket.pause();
    }
  };
}

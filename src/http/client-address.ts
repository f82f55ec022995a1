import type { IncomingMessage } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';

/**
 * The client's address as Fastify's `request.ip` gives it for the same `trustProxy` setting, for every
 * request log line, whichever path answered: the TCP peer, or behind trusted proxies the address their
 * X-Forwarded-For names (the same library Fastify uses, compiled from the same setting).
 */
export function createClientAddress(trustProxy: boolean | string | undefined): (request: IncomingMessage) => string | undefined {
  if (!trustProxy) return (request) => request.socket.remoteAddress;
  const trust =
    trustProxy === true
      ? () => true
      : proxyAddr.compile(
          trustProxy
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean),
        );
  return (request) => {
    const addresses = proxyAddr.all(request, trust);
    return addresses[addresses.length - 1];
  };
}

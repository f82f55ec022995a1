import pino from 'pino';

/** The process logger: JSON lines on stderr, the same format Fastify logs requests in. */
export function createLogger(level: string, destination: NodeJS.WritableStream = process.stderr) {
  return pino({ level, base: null, timestamp: pino.stdTimeFunctions.isoTime }, destination as pino.DestinationStream);
}

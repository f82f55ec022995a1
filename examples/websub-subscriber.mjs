#!/usr/bin/env node
// A WebSub subscriber to try the hub on one machine (README, "Subscribing with WebSub"): an HTTPS
// callback that answers the hub's verification GET with its hub.challenge (WebSub §5.3) and prints
// each content delivery it receives (WebSub §7), checking X-Hub-Signature when given a secret.
//   node examples/websub-subscriber.mjs --port 9443 --key key.pem --cert cert.pem [--secret S] [--once]
// --once exits after the first delivery (exit status 0), or with status 1 after 60 seconds without one.
import { Buffer } from 'node:buffer';
import console from 'node:console';
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import https from 'node:https';
import process from 'node:process';
import { setTimeout } from 'node:timers';
import { URL } from 'node:url';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '9443' },
    key: { type: 'string' },
    cert: { type: 'string' },
    secret: { type: 'string' },
    once: { type: 'boolean', default: false },
  },
});
if (!values.key || !values.cert) {
  console.error('usage: node examples/websub-subscriber.mjs --port 9443 --key key.pem --cert cert.pem [--secret S] [--once]');
  process.exit(2);
}

const server = https.createServer({ key: readFileSync(values.key), cert: readFileSync(values.cert) }, (req, res) => {
  const url = new URL(req.url ?? '/', 'https://localhost');
  if (req.method === 'GET') {
    const mode = url.searchParams.get('hub.mode');
    const challenge = url.searchParams.get('hub.challenge') ?? '';
    console.log(`${mode}: ${url.searchParams.get('hub.topic')} (lease ${url.searchParams.get('hub.lease_seconds') ?? '-'} s)`);
    res.writeHead(200, { 'content-type': 'text/plain' }).end(challenge);
    return;
  }
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const body = Buffer.concat(chunks);
    let signature = 'unsigned';
    if (values.secret) {
      const expected = `sha256=${createHmac('sha256', values.secret).update(body).digest('hex')}`;
      signature = req.headers['x-hub-signature'] === expected ? 'signature ok' : 'BAD SIGNATURE';
    }
    console.log(`delivery: ${req.headers['content-type']}, ${body.length} bytes, ${signature}; ${req.headers.link}`);
    if (values.once) res.on('finish', () => process.exit(signature === 'BAD SIGNATURE' ? 1 : 0));
    res.writeHead(204).end();
  });
});
server.listen(Number(values.port), '127.0.0.1', () => console.log(`subscriber listening on https://127.0.0.1:${values.port}/callback`));
if (values.once) setTimeout(() => (console.error('no delivery within 60 s'), process.exit(1)), 60_000).unref();

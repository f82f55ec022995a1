import fs from 'node:fs';
import path from 'node:path';
import { createTestPki } from '../../support/test-ca.js';

export interface TestPki {
  caFile: string;
  caPem: string;
  certPem: string;
  keyPem: string;
}

/** The shared throw-away CA and 127.0.0.1 certificate, with the CA written to `dir` for WEBSUB_CA_FILE. */
export function makeTestPki(dir: string): TestPki {
  const pki = createTestPki();
  fs.mkdirSync(dir, { recursive: true });
  const caFile = path.join(dir, 'websub-test-ca.pem');
  fs.writeFileSync(caFile, pki.caPem);
  return { caFile, caPem: pki.caPem, certPem: pki.cert, keyPem: pki.key };
}

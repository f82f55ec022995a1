import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import forge from 'node-forge';

export interface TestPki {
  caFile: string;
  caPem: string;
  certPem: string;
  keyPem: string;
}

function rsaPair() {
  const { privateKey, publicKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
  const privPem = privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
  const pubPem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
  return { privPem, priv: forge.pki.privateKeyFromPem(privPem), pub: forge.pki.publicKeyFromPem(pubPem) };
}

const serial = () => '01' + crypto.randomBytes(8).toString('hex');

/** A throw-away CA and a server certificate for 127.0.0.1 signed by it; the CA is written to `dir`. */
export function makeTestPki(dir: string): TestPki {
  const now = Date.now();
  const ca = rsaPair();
  const caCert = forge.pki.createCertificate();
  caCert.publicKey = ca.pub;
  caCert.serialNumber = serial();
  caCert.validity.notBefore = new Date(now - 86400e3);
  caCert.validity.notAfter = new Date(now + 7 * 86400e3);
  const caAttrs = [{ name: 'commonName', value: 'Review Data WebSub Test CA' }];
  caCert.setSubject(caAttrs);
  caCert.setIssuer(caAttrs);
  caCert.setExtensions([
    { name: 'basicConstraints', cA: true, critical: true },
    { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
    { name: 'subjectKeyIdentifier' },
  ]);
  caCert.sign(ca.priv, forge.md.sha256.create());

  const leaf = rsaPair();
  const cert = forge.pki.createCertificate();
  cert.publicKey = leaf.pub;
  cert.serialNumber = serial();
  cert.validity.notBefore = new Date(now - 86400e3);
  cert.validity.notAfter = new Date(now + 7 * 86400e3);
  cert.setSubject([{ name: 'commonName', value: '127.0.0.1' }]);
  cert.setIssuer(caAttrs);
  cert.setExtensions([
    { name: 'basicConstraints', cA: false },
    { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
    { name: 'extKeyUsage', serverAuth: true },
    {
      name: 'subjectAltName',
      altNames: [
        { type: 7, ip: '127.0.0.1' },
        { type: 2, value: 'localhost' },
      ],
    },
  ]);
  cert.sign(ca.priv, forge.md.sha256.create());

  const caPem = forge.pki.certificateToPem(caCert);
  fs.mkdirSync(dir, { recursive: true });
  const caFile = path.join(dir, 'websub-test-ca.pem');
  fs.writeFileSync(caFile, caPem);
  return { caFile, caPem, certPem: forge.pki.certificateToPem(cert), keyPem: leaf.privPem };
}

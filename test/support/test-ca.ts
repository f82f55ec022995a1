import crypto from 'node:crypto';
import forge from 'node-forge';

export interface TestPki {
  /** PEM of the CA certificate: what WEBSUB_CA_FILE points at. */
  caPem: string;
  /** A server certificate for 127.0.0.1 and localhost, signed by the CA. */
  key: string;
  cert: string;
}

function keyPair() {
  // Node generates the RSA key natively (forge's pure-JS generation takes seconds); forge signs.
  const { privateKey, publicKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    privatePem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    privateKey: forge.pki.privateKeyFromPem(privateKey.export({ type: 'pkcs1', format: 'pem' }).toString()),
    publicKey: forge.pki.publicKeyFromPem(publicKey.export({ type: 'spki', format: 'pem' }).toString()),
  };
}

function certificate(subject: string, serial: string, publicKey: forge.pki.PublicKey) {
  const cert = forge.pki.createCertificate();
  cert.publicKey = publicKey;
  cert.serialNumber = serial;
  cert.validity.notBefore = new Date(Date.now() - 60_000);
  cert.validity.notAfter = new Date(Date.now() + 24 * 3600_000);
  cert.setSubject([{ name: 'commonName', value: subject }]);
  return cert;
}

/** A throwaway CA and a localhost certificate, so subscribers speak real TLS that the hub verifies. */
export function createTestPki(): TestPki {
  const ca = keyPair();
  const caCert = certificate('rds test CA', '01', ca.publicKey);
  caCert.setIssuer(caCert.subject.attributes);
  caCert.setExtensions([
    { name: 'basicConstraints', cA: true, critical: true },
    { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
  ]);
  caCert.sign(ca.privateKey, forge.md.sha256.create());

  const leaf = keyPair();
  const leafCert = certificate('localhost', '02', leaf.publicKey);
  leafCert.setIssuer(caCert.subject.attributes);
  leafCert.setExtensions([
    { name: 'basicConstraints', cA: false },
    { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
    { name: 'extKeyUsage', serverAuth: true },
    {
      name: 'subjectAltName',
      altNames: [
        { type: 2, value: 'localhost' },
        { type: 7, ip: '127.0.0.1' },
      ],
    },
  ]);
  leafCert.sign(ca.privateKey, forge.md.sha256.create());
  return { caPem: forge.pki.certificateToPem(caCert), key: leaf.privatePem, cert: forge.pki.certificateToPem(leafCert) };
}

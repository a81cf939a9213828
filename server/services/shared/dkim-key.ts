import { generateKeyPairSync } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * A signing key of the service's own (the sandbox's, the system mail's): the PEM given, or read
 * from the path given; unset, a 2048-bit RSA key generated once into DATA_DIR under `fileName`
 * and kept, so the DKIM record the operator published stays true across restarts.
 */
export function serviceDkimKeyPem(given: string | undefined, dataDir: string, fileName: string): string {
  if (given) return given.includes('-----BEGIN') ? given : fs.readFileSync(given, 'utf8');
  const file = path.join(dataDir, fileName);
  if (!fs.existsSync(file)) {
    fs.mkdirSync(dataDir, { recursive: true });
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048, privateKeyEncoding: { type: 'pkcs8', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } });
    try {
      fs.writeFileSync(file, privateKey, { mode: 0o600, flag: 'wx' });
    } catch (error) {
      // Another process of this DATA_DIR (the CLI beside the server) wrote it first: theirs is the key.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  return fs.readFileSync(file, 'utf8');
}

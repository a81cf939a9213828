import { generateKeyPair, randomBytes } from 'node:crypto';
import { promisify } from 'node:util';

const generate = promisify(generateKeyPair);

export interface DkimKeyPair {
  selector: string;
  /** Base64 SubjectPublicKeyInfo (DER): the `p=` of the DKIM record. */
  publicKey: string;
  privateKeyPem: string;
}

/** A fresh RSA-2048 pair, generated off the event loop, with a selector of its own so keys can rotate. */
export async function generateDkimKeyPair(): Promise<DkimKeyPair> {
  const { publicKey, privateKey } = await generate('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'der' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  return {
    selector: `eu${randomBytes(4).toString('hex')}`,
    publicKey: (publicKey as Buffer).toString('base64'),
    privateKeyPem: privateKey as string,
  };
}

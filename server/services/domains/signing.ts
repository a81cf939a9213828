import { createPrivateKey } from 'node:crypto';
import { and, desc, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import { perDatabase } from '@/db/raw-sql';
import { dkimKeys, domains } from '@/db/schema';
import { open } from '../../crypto/secret-box';
import type { Deps } from '../../deps';
import type { SendingDomain } from '../../mail/message';
import type { SandboxDomain } from './sandbox';

// Keyed by DKIM key id, which the claim reads fresh for every email: a rotated key is a new id
// and a deleted domain has none, so neither is ever signed for from memory. A key's domain name
// and return path never change while the key is active.
const byKeyId = new Map<string, SendingDomain>();
const MAX_KEYS = 10_000;
const sandboxes = new WeakMap<SandboxDomain, SendingDomain>();

const keyRow = perDatabase((db) =>
  db
    .select({ name: domains.name, returnPath: domains.returnPath, selector: dkimKeys.selector, sealed: dkimKeys.privateKeyEncrypted })
    .from(dkimKeys)
    .innerJoin(domains, eq(domains.id, dkimKeys.domainId))
    .where(and(eq(dkimKeys.id, sql.placeholder('keyId')), isNull(dkimKeys.retiredAt), isNotNull(dkimKeys.privateKeyEncrypted)))
    .prepare('sending_domain_of_key'),
);

function sandboxDomain(sandbox: SandboxDomain): SendingDomain {
  let domain = sandboxes.get(sandbox);
  if (!domain) {
    domain = { name: sandbox.name, returnPath: sandbox.returnPath, dkim: { selector: sandbox.selector, privateKey: createPrivateKey(sandbox.privateKeyPem) } };
    sandboxes.set(sandbox, domain);
  }
  return domain;
}

/**
 * The domain an email signs for, with its key parsed once: the email's own domain by the active
 * key the claim found (`signingKeyId`), or the shared sandbox; null once the domain is gone.
 */
export async function sendingDomainOf(deps: Pick<Deps, 'db' | 'encryptionKey' | 'sandbox'>, email: { domainId: string | null; signingKeyId: string | null }): Promise<SendingDomain | null> {
  if (!email.domainId) return sandboxDomain(deps.sandbox);
  if (!email.signingKeyId) return null;
  const known = byKeyId.get(email.signingKeyId);
  if (known) return known;
  const [row] = await keyRow(deps.db).execute({ keyId: email.signingKeyId });
  if (!row?.sealed) return null;
  const domain: SendingDomain = {
    name: row.name,
    returnPath: row.returnPath,
    dkim: { selector: row.selector, privateKey: createPrivateKey(open(row.sealed, deps.encryptionKey)) },
  };
  if (byKeyId.size >= MAX_KEYS) byKeyId.delete(byKeyId.keys().next().value!);
  byKeyId.set(email.signingKeyId, domain);
  return domain;
}

/** The signing key of a domain, for delivery: null once the domain is gone or its key retired. */
export async function signingKeyOf(deps: Pick<Deps, 'db' | 'encryptionKey'>, domainId: string): Promise<{ selector: string; privateKeyPem: string } | null> {
  const [key] = await deps.db
    .select()
    .from(dkimKeys)
    .where(and(eq(dkimKeys.domainId, domainId), isNull(dkimKeys.retiredAt), isNotNull(dkimKeys.privateKeyEncrypted)))
    .orderBy(desc(dkimKeys.id))
    .limit(1);
  return key ? { selector: key.selector, privateKeyPem: open(key.privateKeyEncrypted!, deps.encryptionKey) } : null;
}

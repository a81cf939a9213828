import { createPrivateKey } from 'node:crypto';
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDkimKeyPair, type DkimKeyPair } from '@/server/crypto/dkim-keys';
import { compileMessage } from '@/server/mail/delivery';
import { relaxedBody, signMessage } from '@/server/mail/dkim';
import { buildMessage, SIGNED_HEADERS, type MessageInput } from '@/server/mail/message';
import { verpKeyFrom } from '@/server/mail/verp';
import { dkimValue, splitTxt } from '@/server/services/domains/records';
import { startDnsServer, type DnsServer } from './support/dns';
import { authenticateReceived } from './support/mail-auth';

// The service signs messages itself (off the event loop); mailauth and nodemailer's own signer
// are the references it is checked against, over messages of every shape the builder makes.
let dns: DnsServer;
let key: DkimKeyPair;
beforeAll(async () => {
  key = await generateDkimKeyPair();
  dns = await startDnsServer();
  dns.txt(`${key.selector}._domainkey.acme.test`, ...splitTxt(dkimValue(key.publicKey)));
});
afterAll(() => dns?.close());

const verify = async (raw: Buffer) => {
  const result = await authenticateReceived(raw, { dns, sender: 'bounces@send.acme.test' });
  return result.dkim.results[0]?.status.result;
};

const input = (overrides: Partial<MessageInput>): MessageInput => ({
  emailId: '01920000-0000-7000-8000-000000000001',
  domain: { name: 'acme.test', returnPath: 'send', dkim: { selector: key.selector, privateKey: createPrivateKey(key.privateKeyPem) } },
  from: 'Acme <billing@acme.test>',
  to: ['ann@example.test'],
  subject: 'Your receipt',
  text: 'Thanks!',
  verpKey: verpKeyFrom(Buffer.alloc(32, 7)),
  ...overrides,
});

const shapes: Record<string, Partial<MessageInput>> = {
  'text only': {},
  'html and text, long lines, trailing spaces and blank lines': {
    html: `<p>${'Lorem ipsum dolor sit amet, '.repeat(40)}</p>   \n\n\n`,
    text: `Line with trailing spaces   \nTabs\tand   runs   of spaces\n\n\n\n`,
  },
  'non-ASCII subject, names and body': { subject: 'Ihre Rechnung für März — ✓', from: 'Zoë Müller <billing@acme.test>', to: ['Ånn Öberg <ann@example.test>'], text: 'Grüße, 你好 🎉' },
  'an attachment, cc, reply-to and custom headers': {
    cc: ['bob@example.test'],
    replyTo: ['help@acme.test'],
    headers: { 'X-Campaign': 'spring', 'X-Long': 'x'.repeat(300) },
    attachments: [{ filename: 'receipt.pdf', content: Buffer.alloc(5000, 1), contentType: 'application/pdf' }],
    listUnsubscribe: { url: 'https://app.eumail.test/unsubscribe/abc', mailto: 'unsubscribe@acme.test', oneClick: true },
    feedback: { organizationId: 'org1', stream: 'transactional' },
  },
  'an empty text body': { text: '' },
};

describe('DKIM signing', () => {
  for (const [name, overrides] of Object.entries(shapes)) {
    it(`verifies, and hashes the body as nodemailer does: ${name}`, async () => {
      const message = buildMessage(input(overrides));
      const raw = await compileMessage(message);
      expect(await verify(raw)).toBe('pass');

      // nodemailer's signer over the same unsigned message must find the same body hash.
      const unsigned = raw.subarray(raw.indexOf('\r\n', raw.indexOf('\r\n b=')) + 2);
      const composer = nodemailer.createTransport({ streamTransport: true, buffer: true });
      const reference = await composer.sendMail({
        envelope: { from: 'a@acme.test', to: ['b@example.test'] },
        raw: unsigned,
        dkim: { domainName: 'acme.test', keySelector: key.selector, privateKey: key.privateKeyPem, headerFieldNames: SIGNED_HEADERS },
      });
      const bh = (text: string) => /\bbh=([^;]+);/.exec(text.replace(/\r\n[ \t]+/g, ' '))?.[1];
      expect(bh(raw.toString('latin1'))).toBe(bh((reference.message as Buffer).toString('latin1')));
      expect(await verify(reference.message as Buffer)).toBe('pass');
    });
  }

  it('breaks when a signed header or the body changes', async () => {
    const raw = (await compileMessage(buildMessage(input({})))).toString('latin1');
    expect(await verify(Buffer.from(raw.replace('Subject: Your receipt', 'Subject: Your receipts'), 'latin1'))).toBe('fail');
    // mailauth calls a body that no longer matches its hash neutral.
    expect(await verify(Buffer.from(raw.replace('Thanks!', 'Thanks?'), 'latin1'))).not.toBe('pass');
  });

  it('refuses to send unsigned when the key cannot sign', async () => {
    const message = buildMessage({ ...input({}), domain: { name: 'acme.test', returnPath: 'send', dkim: { selector: 's', privateKeyPem: 'not a key' } } });
    await expect(compileMessage(message)).rejects.toThrow(/DKIM signing failed/);
  });

  it('canonicalizes bodies as RFC 6376 §3.4.4 says', () => {
    expect(relaxedBody('')).toBe('');
    expect(relaxedBody('\r\n\r\n')).toBe('');
    expect(relaxedBody('a  b \t\r\n c\t\r\n\r\n')).toBe('a b\r\n c\r\n');
    expect(relaxedBody('no newline  ')).toBe('no newline\r\n');
  });

  it('signs a message without a body', async () => {
    const raw = Buffer.from('From: billing@acme.test\r\nTo: ann@example.test\r\nSubject: x\r\n\r\n');
    const signed = await signMessage(raw, { domainName: 'acme.test', keySelector: key.selector, privateKey: key.privateKeyPem, headerFieldNames: SIGNED_HEADERS });
    expect(await verify(signed)).toBe('pass');
  });
});

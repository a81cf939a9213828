import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { emailAttachments, emails } from '@/db/schema';
import type { SmtpGateway } from '@/server/mail/gateway-server';
import { startTestApp, type TestApp } from './support/app';
import { keyFor } from './support/keys';
import { startTestGateway } from './support/gateway';
import { sendingOrg } from './support/sending-org';
import { hasDebianTool } from './support/debian-tool';

// Debian's swaks (installed by .ci/run) as the client: a second, independent SMTP implementation
// that says exactly what it sent and what it was told.
let app: TestApp;
let gateway: SmtpGateway;
let dir: string;
beforeAll(async () => {
  app = await startTestApp();
  gateway = await startTestGateway(app);
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eumail-swaks-'));
});
afterAll(async () => {
  await gateway.close();
  await app.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

let org: { organizationId: string; apiKey: string };
let key: string;
beforeEach(async () => {
  await app.reset();
  org = await sendingOrg(app, { plan: '10k' });
  key = await keyFor(app, org.organizationId, 'sending_access', 'test');
});

/** Runs swaks; its exit code and the whole conversation it prints. */
function swaks(args: string[]): Promise<{ code: number; transcript: string }> {
  return new Promise((resolve) => {
    execFile('swaks', ['--server', '127.0.0.1', '--timeout', '20', ...args], { timeout: 30_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, transcript: `${stdout}${stderr}` });
    });
  });
}

const base = (port: number, password: string) => ['--port', String(port), '--from', 'billing@acme.example.com', '--to', 'ada@example.net', '--auth-user', 'apikey', '--auth-password', password];
const queuedId = (transcript: string) => /<~?\s+250 2\.0\.0 Ok: queued as ([0-9a-f-]{36})/.exec(transcript)?.[1];

describe.skipIf(!hasDebianTool('swaks', 'swaks'))('swaks against the gateway', () => {
  it('relays over STARTTLS with AUTH PLAIN and over implicit TLS with AUTH LOGIN, with an attachment', async () => {
    const file = path.join(dir, 'report.csv');
    fs.writeFileSync(file, 'day,sent\n2026-11-27,42\n');
    const starttls = await swaks([...base(gateway.ports.starttls!, key), '--tls', '--auth', 'PLAIN', '--header', 'Subject: Nightly report', '--body', 'See attached', '--attach-type', 'text/csv', '--attach-name', 'report.csv', '--attach', `@${file}`]);
    expect(starttls.code, starttls.transcript).toBe(0);
    const id = queuedId(starttls.transcript);
    expect(id, starttls.transcript).toBeDefined();
    const [row] = await app.runtime.deps.db.select({ subject: emails.subject, via: emails.submittedVia }).from(emails).where(eq(emails.id, id!));
    expect(row).toEqual({ subject: 'Nightly report', via: 'smtp' });
    const attachments = await app.runtime.deps.db.select({ filename: emailAttachments.filename, type: emailAttachments.contentType, content: emailAttachments.content }).from(emailAttachments).where(eq(emailAttachments.emailId, id!));
    // A text part travels with CRLF line ends (RFC 5322): the lines are what was attached.
    expect(attachments.map((a) => [a.filename, a.type, Buffer.from(a.content!).toString().replace(/\r\n/g, '\n')])).toEqual([['report.csv', 'text/csv', 'day,sent\n2026-11-27,42\n']]);

    const implicit = await swaks([...base(gateway.ports.implicitTls!, key), '--tls-on-connect', '--auth', 'LOGIN', '--header', 'Subject: Over TLS', '--body', 'Hello']);
    expect(implicit.code, implicit.transcript).toBe(0);
    expect(queuedId(implicit.transcript)).toBeDefined();
  });

  it('is refused AUTH without TLS, and a bad key gets 535', async () => {
    const cleartext = await swaks([...base(gateway.ports.starttls!, key), '--auth', 'PLAIN', '--header', 'Subject: x', '--body', 'x']);
    expect(cleartext.code).not.toBe(0);
    expect(cleartext.transcript).toMatch(/538 Error: Must issue a STARTTLS command first/);

    const wrong = await swaks([...base(gateway.ports.starttls!, 'eu_test_' + 'q'.repeat(43)), '--tls', '--auth', 'PLAIN', '--header', 'Subject: x', '--body', 'x']);
    expect(wrong.code).not.toBe(0);
    expect(wrong.transcript).toMatch(/535 5\.7\.8 UNAUTHORIZED/);
    expect(await app.runtime.deps.db.$count(emails)).toBe(0);
  });

  it('gets the spec code of a refusal in the reply to DATA', async () => {
    const unverified = await swaks([...base(gateway.ports.starttls!, key), '--from', 'me@unverified.example', '--tls', '--auth', 'PLAIN', '--header', 'From: me@unverified.example', '--header', 'Subject: x', '--body', 'x']);
    expect(unverified.code).not.toBe(0);
    expect(unverified.transcript).toMatch(/550 5\.7\.1 DOMAIN_NOT_VERIFIED: unverified\.example is not a verified domain/);
  });
});

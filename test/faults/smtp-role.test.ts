import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import { eq } from 'drizzle-orm';
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emails } from '@/db/schema';
import { createApiKey } from '@/server/services/api-keys/keys';
import { faultWorld, type FaultWorld } from '../support/fault-world';
import { selfSignedCertificate } from '../support/loopback-https';
import { freePort, startPostgresCluster, type PostgresCluster } from '../support/postgres-cluster';
import { waitForOutput, type Spawned } from '../support/process';
import { buildServerBundle } from '../support/built-server';
import { openSmtp } from '../support/smtp-client';

/*
 * The SMTP gateway as its own process (ROLES=smtp) against a Postgres it shares with the rest of
 * the service: it serves no HTTP, relays through the send service into the shared database, and
 * takes a renewed certificate on SIGHUP without dropping its listener.
 */

/** The SHA-256 fingerprint of the certificate a TLS server presents on this port. */
async function presentedFingerprint(port: number): Promise<string> {
  const socket = tls.connect({ port, host: '127.0.0.1', rejectUnauthorized: false });
  try {
    await new Promise<void>((resolve, reject) => {
      socket.once('secureConnect', resolve);
      socket.once('error', reject);
    });
    expect(['TLSv1.2', 'TLSv1.3']).toContain(socket.getProtocol());
    return socket.getPeerX509Certificate()!.fingerprint256;
  } finally {
    socket.destroy();
  }
}

const fingerprintOf = (pem: string) => new crypto.X509Certificate(pem).fingerprint256;

describe.runIf(process.env.DATABASE_URL)('the smtp role as its own process', () => {
  let cluster: PostgresCluster;
  let world: FaultWorld;
  let server: Spawned;
  let certDir: string;
  let ports: { starttls: number; tls: number; http: number };
  let bundle: Awaited<ReturnType<typeof buildServerBundle>>;

  beforeAll(async () => {
    cluster = await startPostgresCluster();
    world = await faultWorld({ databaseUrl: cluster.url, relayUrl: 'smtp://127.0.0.1:9' });
    certDir = fs.mkdtempSync(path.join(os.tmpdir(), 'eumail-smtp-tls-'));
    const first = await selfSignedCertificate(['smtp.faults.example']);
    fs.writeFileSync(path.join(certDir, 'cert.pem'), first.cert);
    fs.writeFileSync(path.join(certDir, 'key.pem'), first.key);
    ports = { starttls: await freePort(), tls: await freePort(), http: await freePort() };
    // The built bundle, run by node alone: SIGHUP reaches the server itself, with no loader in between.
    bundle = await buildServerBundle('smtp-role');
    server = bundle.run('main', {
      ...world.env,
      ROLES: 'smtp',
      PORT: String(ports.http),
      SMTP_GATEWAY_PORT: String(ports.starttls),
      SMTP_GATEWAY_TLS_PORT: String(ports.tls),
      SMTP_TLS_CERT: path.join(certDir, 'cert.pem'),
      SMTP_TLS_KEY: path.join(certDir, 'key.pem'),
      LOG_LEVEL: 'info',
    });
    await waitForOutput(server, /SMTP gateway listening/);
  }, 180_000);

  afterAll(async () => {
    server?.child.kill('SIGTERM');
    await server?.exited;
    await world?.close();
    cluster?.destroy();
    bundle?.remove();
    if (certDir) fs.rmSync(certDir, { recursive: true, force: true });
  });

  it('relays into the shared database and serves no API, only its health and metrics', async () => {
    const key = await createApiKey(
      world.runtime.deps,
      { organizationId: world.organizationId, permission: 'full_access', mode: 'live', keyId: null, domainId: null, userId: null, plan: '10k', rateLimitOverride: null },
      { name: 'WordPress', permission: 'sending_access', mode: 'test' },
    );
    const client = nodemailer.createTransport({ host: '127.0.0.1', port: ports.starttls, requireTLS: true, auth: { user: 'apikey', pass: key.key }, tls: { rejectUnauthorized: false } });
    const info = await client.sendMail({ from: world.from, to: 'ada@example.net', subject: 'From the smtp role', text: 'Hello' });
    client.close();
    const id = /queued as ([0-9a-f-]{36})/.exec(info.response)?.[1];
    expect(id, info.response).toBeDefined();
    const [row] = await world.runtime.deps.db.select({ subject: emails.subject, via: emails.submittedVia }).from(emails).where(eq(emails.id, id!));
    expect(row).toEqual({ subject: 'From the smtp role', via: 'smtp' });

    // On PORT only what every process answers: its health and its metrics, not the API.
    expect(await (await fetch(`http://127.0.0.1:${ports.http}/api/health`)).json()).toEqual({ status: 'ok' });
    expect(await (await fetch(`http://127.0.0.1:${ports.http}/api/health/ready`)).json()).toMatchObject({ status: 'ready', roles: ['smtp'] });
    expect((await fetch(`http://127.0.0.1:${ports.http}/api/emails`)).status).toBe(404);
    expect(await (await fetch(`http://127.0.0.1:${ports.http}/metrics`)).text()).toMatch(/^eumail_emails_accepted_total\{source="smtp",mode="test"\} 1$/m);
    expect(server.output()).not.toMatch(/EU Mail listening on port/);
  });

  it('takes a renewed certificate on SIGHUP, on both ports, for the next connections', async () => {
    const before = fs.readFileSync(path.join(certDir, 'cert.pem'), 'utf8');
    expect(await presentedFingerprint(ports.tls)).toBe(fingerprintOf(before));

    const renewed = await selfSignedCertificate(['smtp.faults.example']);
    fs.writeFileSync(path.join(certDir, 'cert.pem'), renewed.cert);
    fs.writeFileSync(path.join(certDir, 'key.pem'), renewed.key);
    server.child.kill('SIGHUP');
    await waitForOutput(server, /certificate reloaded/);

    expect(await presentedFingerprint(ports.tls)).toBe(fingerprintOf(renewed.cert));
    // STARTTLS on the other port presents it too.
    const smtp = await openSmtp(ports.starttls);
    try {
      expect(await smtp.reply()).toMatch(/^220 /);
      expect(await smtp.command('EHLO client.example')).toMatch(/^250/);
      expect(await smtp.startTls()).toMatch(/^220 /);
      expect(smtp.fingerprint()).toBe(fingerprintOf(renewed.cert));
    } finally {
      smtp.close();
    }
    expect(server.child.exitCode).toBeNull();
  });
});

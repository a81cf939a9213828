import { sql } from 'drizzle-orm';
import { webhooks } from '@/db/schema';
import { newId } from '@/server/ids';
import { newSigningSecret, sealSecret } from '@/server/services/webhooks/secrets';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeOutboundConnections } from '@/server/net/outbound';
import { startTestApp, type TestApp } from './support/app';
import { keyFor } from './support/keys';
import { startWebhookReceiver, type WebhookReceiver } from './support/webhook-receiver';

let app: TestApp;
let receiver: WebhookReceiver;
beforeAll(async () => {
  app = await startTestApp({ env: { WEBHOOK_ALLOW_PRIVATE_CIDRS: '127.0.0.0/8' } });
  receiver = await startWebhookReceiver();
  app.dns.a('hooks.example.com', '127.0.0.1');
});
afterAll(async () => {
  await closeOutboundConnections();
  await receiver.close();
  await app.close();
});

/** Every row of every table of the database, as text: what someone with a copy of it would read. */
async function databaseAsText(): Promise<string> {
  const rowsOf = (result: unknown) => (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as Array<Record<string, string>>;
  const tables = rowsOf(await app.runtime.deps.db.execute(sql`select table_name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE'`));
  const dumps: string[] = [];
  for (const { table_name: table } of tables) {
    for (const row of rowsOf(await app.runtime.deps.db.execute(sql`select t::text as row from ${sql.identifier(table!)} t`))) dumps.push(`${table}: ${row.row}`);
  }
  return dumps.join('\n');
}

describe('secrets at rest', () => {
  it('keeps no webhook signing secret (live or test-mode) and no DKIM private key readable in the database', async () => {
    const { apiKey, organizationId } = await app.createOrg();
    const created = await app.request('POST', '/api/webhooks', { key: apiKey, body: { url: `http://hooks.example.com:${receiver.port}/hook`, events: ['*'] } });
    expect(created.status, created.text).toBe(201);
    const rotated = await app.request('POST', `/api/webhooks/${created.body.id}/rotate-secret`, { key: apiKey });
    expect(rotated.status).toBe(200);
    // The test-mode secret: made with the endpoint, rotated by a test key.
    const testKey = await keyFor(app, organizationId, 'full_access', 'test');
    const rotatedTest = await app.request('POST', `/api/webhooks/${created.body.id}/rotate-secret`, { key: testKey });
    expect(rotatedTest.body).toEqual({ mode: 'test', secret: expect.stringMatching(/^whsec_/) });
    // An endpoint stored before test secrets existed gets one, sealed, when it is first read.
    const older = newId();
    const now = app.clock.now();
    await app.runtime.deps.db.insert(webhooks).values({ id: older, organizationId, url: `http://hooks.example.com:${receiver.port}/old`, events: ['*'], secretSealed: sealSecret(newSigningSecret(), app.runtime.deps.encryptionKey), createdAt: now, updatedAt: now });
    const lazy = await app.request('GET', `/api/webhooks/${older}/secret`, { key: testKey });
    expect(lazy.body).toEqual({ mode: 'test', secret: expect.stringMatching(/^whsec_/) });
    // A delivery made with it (the test ping) leaves its traces in the database too.
    expect((await app.request('POST', `/api/webhooks/${created.body.id}/test`, { key: apiKey })).status).toBeLessThan(300);
    expect((await app.request('POST', '/api/domains', { key: apiKey, body: { name: 'acme.example.com' } })).status).toBe(201);

    const dump = await databaseAsText();
    expect(dump).toContain('acme.example.com');
    expect(dump).toContain(created.body.id);
    expect(dump).not.toContain('whsec_');
    const secrets = [created.body.secret, created.body.testSecret, rotated.body.secret, rotatedTest.body.secret, lazy.body.secret] as string[];
    expect(new Set(secrets).size).toBe(5);
    for (const secret of secrets) expect(dump).not.toContain(secret.slice('whsec_'.length));
    expect(dump).not.toMatch(/PRIVATE KEY/);
  });
});

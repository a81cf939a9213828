import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeOutboundConnections } from '@/server/net/outbound';
import { startTestApp, type TestApp } from './support/app';
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
  it('keeps no webhook signing secret and no DKIM private key readable in the database', async () => {
    const { apiKey } = await app.createOrg();
    const created = await app.request('POST', '/api/webhooks', { key: apiKey, body: { url: `http://hooks.example.com:${receiver.port}/hook`, events: ['*'] } });
    expect(created.status, created.text).toBe(201);
    const rotated = await app.request('POST', `/api/webhooks/${created.body.id}/rotate-secret`, { key: apiKey });
    expect(rotated.status).toBe(200);
    // A delivery made with it (the test ping) leaves its traces in the database too.
    expect((await app.request('POST', `/api/webhooks/${created.body.id}/test`, { key: apiKey })).status).toBeLessThan(300);
    expect((await app.request('POST', '/api/domains', { key: apiKey, body: { name: 'acme.example.com' } })).status).toBe(201);

    const dump = await databaseAsText();
    expect(dump).toContain('acme.example.com');
    expect(dump).toContain(created.body.id);
    expect(dump).not.toContain('whsec_');
    for (const secret of [created.body.secret as string, rotated.body.secret as string]) expect(dump).not.toContain(secret.slice('whsec_'.length));
    expect(dump).not.toMatch(/PRIVATE KEY/);
  });
});

import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { queryRows } from '@/db/client';
import { startTestApp, type TestApp } from './support/app';
import { sendingOrg } from './support/sending-org';

// The rows written on every send (an email's recipients and history, the event log) have no
// per-row foreign key (migration 0021): deleting their email or organization still deletes them,
// by a statement trigger, and nothing of another email or organization goes with them.

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => {
  await app.close();
});
beforeEach(async () => {
  await app.reset();
});

const count = async (table: string, column: string, ids: string[]) => {
  const [row] = await queryRows<{ n: number }>(
    app.runtime.deps.db,
    sql`select count(*)::int as n from ${sql.identifier(table)} where ${sql.identifier(column)} = any(${`{${ids.join(',')}}`}::uuid[])`,
  );
  return row!.n;
};

async function sendTwo(apiKey: string): Promise<string[]> {
  const ids: string[] = [];
  for (const to of ['ana@example.net', 'ben@example.net']) {
    const sent = await app.request('POST', '/api/emails', { key: apiKey, body: { from: 'Acme <billing@acme.example.com>', to: [to, 'cc@example.net'], subject: 'Receipt', text: 'Thanks' } });
    expect(sent.status).toBe(200);
    ids.push(sent.body.id);
  }
  return ids;
}

describe('rows that depend on an email or an organization', () => {
  it('go with the email they belong to, and only with it', async () => {
    const org = await sendingOrg(app);
    const [gone, kept] = await sendTwo(org.apiKey);
    expect(await count('email_recipients', 'email_id', [gone!, kept!])).toBe(4);
    // A delivery outcome each: history rows of both emails (acceptance is not stored, emails/history.ts).
    await queryRows(app.runtime.deps.db, sql`insert into email_events (id, email_id, organization_id, type, data, created_at) select gen_random_uuid(), id, organization_id, 'email.sent', '{}', now() from emails where id = any(${`{${gone},${kept}}`}::uuid[])`);
    expect(await count('email_events', 'email_id', [gone!, kept!])).toBe(2);

    await queryRows(app.runtime.deps.db, sql`delete from emails where id = ${gone}::uuid`);

    expect(await count('email_recipients', 'email_id', [gone!])).toBe(0);
    expect(await count('email_events', 'email_id', [gone!])).toBe(0);
    expect(await count('email_recipients', 'email_id', [kept!])).toBe(2);
    expect(await count('email_events', 'email_id', [kept!])).toBe(1);
    expect((await app.request('GET', `/api/emails/${kept}`, { key: org.apiKey })).status).toBe(200);
  });

  it('go with the organization they belong to: its emails, their rows and its event log; another organization keeps its own', async () => {
    const doomed = await sendingOrg(app);
    const doomedEmails = await sendTwo(doomed.apiKey);
    const other = await app.createOrg({ name: 'Other', ownerEmail: 'owner@other.test' });
    const otherDomain = await app.request('POST', '/api/domains', { key: other.apiKey, body: { name: 'other.example.com' } });
    expect(otherDomain.status).toBe(201);
    expect(await count('events', 'organization_id', [doomed.organizationId])).toBeGreaterThan(0);
    const otherEvents = await count('events', 'organization_id', [other.organizationId]);
    expect(otherEvents).toBeGreaterThan(0);

    await queryRows(app.runtime.deps.db, sql`delete from organizations where id = ${doomed.organizationId}::uuid`);

    expect(await count('emails', 'organization_id', [doomed.organizationId])).toBe(0);
    expect(await count('email_recipients', 'email_id', doomedEmails)).toBe(0);
    expect(await count('email_events', 'email_id', doomedEmails)).toBe(0);
    expect(await count('events', 'organization_id', [doomed.organizationId])).toBe(0);
    expect(await count('events', 'organization_id', [other.organizationId])).toBe(otherEvents);
    expect((await app.request('GET', `/api/domains/${otherDomain.body.id}`, { key: other.apiKey })).status).toBe(200);
  });

  it('are written without a per-row foreign-key check', async () => {
    const constraints = await queryRows<{ name: string }>(
      app.runtime.deps.db,
      sql`select conname as name from pg_constraint where contype = 'f' and conrelid in ('emails'::regclass, 'email_recipients'::regclass, 'email_events'::regclass, 'events'::regclass)`,
    );
    expect(constraints).toEqual([]);
  });
});

import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestApp, type TestApp } from './support/app';

// The real key generator, watched: the question is only whether it runs.
const generated = vi.hoisted(() => ({ count: 0 }));
vi.mock('@/server/crypto/dkim-keys', async (importOriginal) => {
  const original = await importOriginal<typeof import('@/server/crypto/dkim-keys')>();
  return {
    ...original,
    generateDkimKeyPair: async () => {
      generated.count += 1;
      return original.generateDkimKeyPair();
    },
  };
});

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

describe('a registration the plan refuses', () => {
  it('is refused before a DKIM key is generated', async () => {
    const { apiKey } = await app.createOrg({ plan: 'free' });
    const first = await app.request('POST', '/api/domains', { key: apiKey, body: { name: 'acme-mail.com' } });
    expect(first.status).toBe(201);
    expect(generated.count).toBe(1);
    const refused = await app.request('POST', '/api/domains', { key: apiKey, body: { name: 'acme-news.com' } });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('PLAN_LIMIT_EXCEEDED');
    expect(generated.count).toBe(1);
  });
});

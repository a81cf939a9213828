import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServerBundle } from './support/built-server';
import { waitForOutput } from './support/process';

let dataDir: string;
let bundle: Awaited<ReturnType<typeof buildServerBundle>>;
const runBuilt = (entry: 'main' | 'cli', args: string[], env: Record<string, string>) => bundle.run(entry, env, args);

beforeAll(async () => {
  bundle = await buildServerBundle('compiled');
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'eumail-built-'));
});
afterAll(() => {
  bundle.remove();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('the compiled server', () => {
  it('is plain JavaScript that node runs: the CLI, then the server answering /api/health', async () => {
    const env = { DATA_DIR: dataDir, DASHBOARD: 'off', PORT: '0', BOUNCE_SMTP_PORT: '0', SMTP_GATEWAY_PORT: '0', SMTP_GATEWAY_TLS_PORT: '0', APP_URL: 'http://127.0.0.1:3000' };
    const create = runBuilt('cli', ['org:create', '--name', 'Built', '--owner-email', 'built@example.com', '--plan', 'free'], env);
    expect(await create.exited).toBe(0);
    const created = JSON.parse(create.output().trim().split('\n').pop()!) as { organizationId: string; apiKey: string };
    expect(created.apiKey).toMatch(/^eu_live_/);

    const server = runBuilt('main', [], env);
    try {
      await waitForOutput(server, /listening on port (\d+)/);
      const port = /listening on port (\d+)/.exec(server.output())![1];
      const health = await fetch(`http://127.0.0.1:${port}/api/health`);
      expect(health.status).toBe(200);
      expect(await health.json()).toEqual({ status: 'ok' });
      const keys = await fetch(`http://127.0.0.1:${port}/api/api-keys`, { headers: { authorization: `Bearer ${created.apiKey}` } });
      expect(keys.status).toBe(200);
      // A template preview renders in the pool's worker thread, loaded from the bundle's own entry (render-worker.mjs).
      const auth = { authorization: `Bearer ${created.apiKey}`, 'content-type': 'application/json' };
      const template = await fetch(`http://127.0.0.1:${port}/api/templates`, { method: 'POST', headers: auth, body: JSON.stringify({ name: 'Built', subject: 'Hi {{ name }}', html: '<p>{{ name }}</p>' }) });
      expect(template.status).toBe(201);
      const { id } = (await template.json()) as { id: string };
      const preview = await fetch(`http://127.0.0.1:${port}/api/templates/${id}/preview?variables=${encodeURIComponent('{"name":"Ada <3"}')}`, { headers: auth });
      expect(await preview.json()).toEqual({ subject: 'Hi Ada <3', html: '<p>Ada &lt;3</p>', text: null, missingVariables: [] });
      // While the server holds the embedded database, the built CLI goes through it.
      const show = runBuilt('cli', ['org:show', '--org', created.organizationId], env);
      expect(await show.exited).toBe(0);
      expect(JSON.parse(show.output().trim().split('\n').pop()!)).toMatchObject({ organizationId: created.organizationId, name: 'Built' });
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }
  }, 120_000);
});

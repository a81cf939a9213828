import net from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app';

let app: TestApp;
let key: string;
beforeAll(async () => {
  app = await startTestApp({ env: { BODY_LIMIT_BYTES: '32768' } });
});
afterAll(() => app.close());
beforeEach(async () => {
  await app.reset();
  key = (await app.createOrg()).apiKey;
});

const expectRefusal = (response: { status: number; body: any }, status: number, code: string, mentions?: RegExp) => {
  expect(response.status).toBe(status);
  expect(response.body).toEqual({ error: expect.any(String), code });
  if (mentions) expect(response.body.error).toMatch(mentions);
};

describe('query keys named like object properties', () => {
  it.each(['__proto__', 'constructor', 'toString', 'hasOwnProperty'])('are refused or ignored, never a 500: %s', async (name) => {
    for (const path of [`/api/health?${name}=1`, `/api/emails?${name}=x`, `/api/domains?${name}=1&${name}=2`]) {
      const response = await app.request('GET', path, { key });
      expect(response.status, path).toBeLessThan(500);
    }
    const deleted = await app.request('DELETE', `/api/api-keys/00000000-0000-7000-8000-000000000000?${name}=1`, { key });
    expect(deleted.status).toBeLessThan(500);
  });
});

describe('a "__proto__" key in a JSON body', () => {
  it('is refused with 400 wherever it sits, with or without a \\u escape in the body, and nothing is stored', async () => {
    // zod drops the key from a map, so { "__proto__": false } would have been declared as an empty schema.
    for (const name of ['plain', 'esc\\u0061ped']) {
      const rawBody = `{"name":"${name}","schema":{"__proto__":false}}`;
      const response = await app.request('POST', '/api/events', { key, rawBody, headers: { 'content-type': 'application/json' } });
      expectRefusal(response, 400, 'VALIDATION_ERROR', /__proto__/);
    }
    const nested = await app.request('POST', '/api/contacts', { key, rawBody: '{"email":"a@example.com","properties":{"x":{"__proto__":{"admin":true}}}}', headers: { 'content-type': 'application/json' } });
    expectRefusal(nested, 400, 'VALIDATION_ERROR', /__proto__/);
    const declared = await app.request('GET', '/api/events/declared', { key });
    expect(declared.body.data).toEqual([]);
  });
});

describe('deep JSON', () => {
  it('is refused with 400 past 64 levels, never a stack overflow', async () => {
    const deep = `${'['.repeat(10_000)}${']'.repeat(10_000)}`;
    const response = await app.request('POST', '/api/api-keys', { key, rawBody: `{"name":"x","extra":${deep}}`, headers: { 'content-type': 'application/json' } });
    expectRefusal(response, 400, 'VALIDATION_ERROR', /nest/i);
  });
  it('counts the same depth whether the body holds a \\u escape or not (two walks)', async () => {
    // The object is level 0 and "extra" level 1: the number sits at level 64, then at 65 (inside 63, then 64 arrays).
    const nested = (levels: number) => `${'['.repeat(levels)}1${']'.repeat(levels)}`;
    for (const name of ['plain', 'esc\\u0061ped']) {
      const deepest = await app.request('POST', '/api/api-keys', { key, rawBody: `{"name":"${name}","extra":${nested(63)}}`, headers: { 'content-type': 'application/json' } });
      expect(JSON.stringify(deepest.body), name).not.toMatch(/nest/i);
      const past = await app.request('POST', '/api/api-keys', { key, rawBody: `{"name":"${name}","extra":${nested(64)}}`, headers: { 'content-type': 'application/json' } });
      expectRefusal(past, 400, 'VALIDATION_ERROR', /nest/i);
    }
  });
});

describe('text Postgres cannot store, and broken UTF-16', () => {
  it('refuses NUL in a body field, naming it', async () => {
    expectRefusal(await app.request('POST', '/api/api-keys', { key, body: { name: 'a\u0000b' } }), 400, 'VALIDATION_ERROR', /name/);
  });
  it('refuses NUL in a query filter, naming it', async () => {
    expectRefusal(await app.request('GET', '/api/emails?to=a%00b@example.net', { key }), 400, 'VALIDATION_ERROR', /to/);
  });
  it('refuses a lone surrogate in a body field, naming it', async () => {
    const response = await app.request('POST', '/api/api-keys', { key, rawBody: '{"name":"bad \\ud800 text"}', headers: { 'content-type': 'application/json' } });
    expectRefusal(response, 400, 'VALIDATION_ERROR', /name/);
  });
});

describe('bytes that are not UTF-8', () => {
  it('are refused, never stored as U+FFFD', async () => {
    const response = await fetch(`${app.url}/api/api-keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: Buffer.concat([Buffer.from('{"name":"k'), Buffer.from([0xff, 0xfe]), Buffer.from('"}')]),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: 'The request body is not valid UTF-8', code: 'VALIDATION_ERROR' });
  });
  it('refuses a lone surrogate spelt in bytes (CESU), not only as an escape', async () => {
    const response = await fetch(`${app.url}/api/api-keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: Buffer.concat([Buffer.from('{"name":"k'), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('"}')]),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: 'The request body is not valid UTF-8', code: 'VALIDATION_ERROR' });
  });
});

describe('booleans', () => {
  it('take JSON booleans only: the string "false" is a 400, never tracking switched on', async () => {
    const response = await app.request('POST', '/api/domains', { key, body: { name: 'example.com', click_tracking: 'false' } });
    expectRefusal(response, 400, 'VALIDATION_ERROR', /click_tracking/);
    const listed = await app.request('GET', '/api/domains', { key });
    // Nothing registered: the shared sandbox alone.
    expect(listed.body.data).toEqual([expect.objectContaining({ sandbox: true })]);
  });
});

describe('strict bodies', () => {
  it.each([
    ['PATCH', '/api/emails/00000000-0000-7000-8000-000000000000', { scheduled_at: '2030-01-01T00:00:00Z', id: 'x' }],
    ['POST', '/api/emails/00000000-0000-7000-8000-000000000000/cancel', { anything: 1 }],
    ['POST', '/api/domains/00000000-0000-7000-8000-000000000000/verify', { anything: 1 }],
  ])('%s %s refuses an unknown property', async (method, path, body) => {
    const response = await app.request(method, path, { key, body });
    expectRefusal(response, 400, 'VALIDATION_ERROR');
  });
});

/**
 * Raw requests on one keep-alive connection, each sent once the previous one was answered. Ends
 * with the statuses, and whether the server closed the connection (a client then reconnects) or
 * went silent (a hung connection: the failure this guards against).
 */
function onOneConnection(port: number, requests: string[]): Promise<{ answers: string[]; closedByServer: boolean; hung: boolean }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const answers: string[] = [];
    let buffer = '';
    let next = 0;
    const send = () => socket.write(requests[next++]!);
    const done = (outcome: { closedByServer: boolean; hung: boolean }) => resolve({ answers, ...outcome });
    socket.setTimeout(5_000, () => {
      socket.destroy();
      done({ closedByServer: false, hung: true });
    });
    socket.on('end', () => done({ closedByServer: true, hung: false }));
    socket.on('data', (chunk) => {
      buffer += chunk.toString('latin1');
      const match = /^HTTP\/1\.1 (\d{3})[\s\S]*?\r\n\r\n/.exec(buffer);
      if (!match) return;
      const length = Number(/content-length: (\d+)/i.exec(match[0])?.[1] ?? 0);
      if (buffer.length < match[0].length + length) return;
      answers.push(match[1]!);
      buffer = buffer.slice(match[0].length + length);
      if (/connection: close/i.test(match[0])) return;
      if (next >= requests.length) {
        socket.end();
        done({ closedByServer: false, hung: false });
      } else send();
    });
    socket.on('error', reject);
    socket.on('connect', send);
  });
}

describe('a refused body does not poison the connection', () => {
  const port = () => Number(new URL(app.url).port);
  const health = 'GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n';
  it('after a 413 for an oversized chunked body, the next request is answered', async () => {
    const chunk = 'x'.repeat(40_000);
    const oversized = `POST /api/api-keys HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n${chunk.length.toString(16)}\r\n${chunk}\r\n0\r\n\r\n`;
    const { answers, closedByServer, hung } = await onOneConnection(port(), [oversized, health]);
    expect(answers[0]).toBe('413');
    expect(hung).toBe(false);
    // Either it answered on this connection, or it closed it so the client opens another.
    if (!closedByServer) expect(answers).toEqual(['413', '200']);
  });
  it('after a 413 for a body declared too large, the next request is answered or the connection closed', async () => {
    const declared = `POST /api/api-keys HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"name":"partial`;
    const { answers, closedByServer, hung } = await onOneConnection(port(), [declared, health]);
    expect(answers[0]).toBe('413');
    expect(hung).toBe(false);
    if (!closedByServer) expect(answers).toEqual(['413', '200']);
  });
  it.each([
    ['malformed JSON', 'application/json', '{"name": '],
    ['a body that is not JSON', 'text/plain', 'name=x'],
  ])('after a refusal for %s, the next request is answered', async (_, type, body) => {
    const refused = `POST /api/api-keys HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nContent-Type: ${type}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
    const { answers, hung } = await onOneConnection(port(), [refused, health]);
    expect(hung).toBe(false);
    expect(answers).toEqual([type === 'application/json' ? '400' : '415', '200']);
  });
});

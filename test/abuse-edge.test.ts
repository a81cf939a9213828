import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_EDGE_LIMITS, loadConfig } from '@/server/config';
import { BODY_LIMITS } from '@/server/trpc/request-limits';
import { MAX_HEAD_BYTES, MAX_REQUEST_TARGET_BYTES } from '@/server/http/request-bounds';
import { startTestApp, type TestApp } from './support/app';
import { keyFor } from './support/keys';

/**
 * The attacks of issue 28 points 4, 5, 6 and 11, each made on the wire as an attacker makes it:
 * bodies declared and never sent, chunked bodies, long request lines, big header blocks, slow
 * and greedy clients. docs/security.md ("Abuse: the HTTP edge") names each test.
 */

let app: TestApp;
let key: string;
let organizationId: string;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());
beforeEach(async () => {
  await app.reset();
  ({ apiKey: key, organizationId } = await app.createOrg());
});

const portOf = (target: TestApp) => Number(new URL(target.url).port);

interface Exchange {
  status: number | null;
  head: string;
  body: any;
  /** Milliseconds from connecting to the whole answer, or null when none came. */
  answeredMs: number | null;
  /** The server ended the connection (the client saw end of stream) before the wait was over. */
  closedByServer: boolean;
  closedMs: number | null;
  /** What the client's writes ran into (EPIPE, ECONNRESET), if anything. */
  writeError: string | null;
}

/**
 * One raw request on its own connection: `parts` written in order (`gapMs` apart, as a slow
 * client sends), while the answer is read. Waits for the server to close, or `waitMs`.
 */
function exchange(port: number, parts: Array<string | Buffer>, options: { gapMs?: number; waitMs?: number } = {}): Promise<Exchange> {
  const waitMs = options.waitMs ?? 3_000;
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    const started = performance.now();
    let received = Buffer.alloc(0);
    const result: Exchange = { status: null, head: '', body: undefined, answeredMs: null, closedByServer: false, closedMs: null, writeError: null };
    const finish = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve(result);
    };
    const timer = setTimeout(finish, waitMs);
    socket.on('data', (chunk) => {
      received = Buffer.concat([received, chunk]);
      if (result.answeredMs !== null) return;
      const headEnd = received.indexOf('\r\n\r\n');
      if (headEnd === -1) return;
      const head = received.subarray(0, headEnd).toString('latin1');
      const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
      if (received.length < headEnd + 4 + length) return;
      result.head = head;
      result.status = Number(head.slice(9, 12));
      const text = received.subarray(headEnd + 4, headEnd + 4 + length).toString('utf8');
      try {
        result.body = JSON.parse(text);
      } catch {
        result.body = text;
      }
      result.answeredMs = performance.now() - started;
    });
    socket.on('end', () => {
      result.closedByServer = true;
      result.closedMs = performance.now() - started;
      finish();
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      result.writeError ??= error.code ?? error.message;
    });
    socket.on('connect', async () => {
      for (const part of parts) {
        if (socket.destroyed || result.closedByServer) return;
        if (!socket.write(part)) await new Promise((done) => socket.once('drain', done).once('close', done));
        if (options.gapMs) await new Promise((done) => setTimeout(done, options.gapMs));
      }
    });
  });
}

const expectEnvelope = (answer: Exchange, status: number, code: string) => {
  expect(answer.status, answer.head).toBe(status);
  expect(answer.body).toMatchObject({ error: expect.any(String), code });
  expect(Object.keys(answer.body).filter((name) => name !== 'request_id').sort()).toEqual(['code', 'error']);
};

/** A chunked body of `total` bytes in 64 KiB chunks, terminated. */
function chunkedBody(total: number, fill = 'x'): Buffer[] {
  const parts: Buffer[] = [];
  for (let sent = 0; sent < total; ) {
    const size = Math.min(65_536, total - sent);
    parts.push(Buffer.concat([Buffer.from(`${size.toString(16)}\r\n`), Buffer.alloc(size, fill), Buffer.from('\r\n')]));
    sent += size;
  }
  parts.push(Buffer.from('0\r\n\r\n'));
  return parts;
}

const UNKNOWN_KEY = `eu_live_${'A'.repeat(43)}`;

describe('point 4: who is asking is decided from the headers, before any body is read', () => {
  it.each([
    ['no key', '/api/emails', null],
    ['a malformed key', '/api/emails', 'Bearer nope'],
    ['an unknown key', '/api/templates', `Bearer ${UNKNOWN_KEY}`],
    ['no key', '/api/emails/batch', null],
    ['no key', '/api/suppressions/batch', null],
  ])('%s on POST %s declaring 15 MB (never sent) is answered 401 at once and closed', async (_, path, authorization) => {
    const head = `POST ${path} HTTP/1.1\r\nHost: x\r\n${authorization ? `Authorization: ${authorization}\r\n` : ''}Content-Type: application/json\r\nContent-Length: 15000000\r\n\r\n{"to":`;
    const answer = await exchange(portOf(app), [head]);
    expectEnvelope(answer, 401, 'UNAUTHORIZED');
    expect(answer.head).toMatch(/\r\nconnection: close/i);
    expect(answer.answeredMs!).toBeLessThan(1_000);
    expect(answer.closedByServer).toBe(true);
    expect(answer.closedMs!).toBeLessThan(1_000);
  });

  it('a revoked key is refused the same way', async () => {
    const spare = await keyFor(app, organizationId, 'full_access', 'live');
    const listed = await app.request('GET', '/api/api-keys', { key });
    const spareId = listed.body.data.find((entry: { name: string }) => entry.name === 'full_access-live').id;
    expect((await app.request('DELETE', `/api/api-keys/${spareId}`, { key })).status).toBe(200);
    const answer = await exchange(portOf(app), [`POST /api/templates HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${spare}\r\nContent-Length: 15000000\r\n\r\n`]);
    expectEnvelope(answer, 401, 'UNAUTHORIZED');
    expect(answer.closedByServer).toBe(true);
  });

  it('a sending_access key on a route it may not call is refused 403 before its body, and closed', async () => {
    const sending = await keyFor(app, organizationId, 'sending_access', 'live');
    const answer = await exchange(portOf(app), [`POST /api/templates HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${sending}\r\nContent-Length: 15000000\r\n\r\n`]);
    expectEnvelope(answer, 403, 'FORBIDDEN');
    expect(answer.answeredMs!).toBeLessThan(1_000);
    expect(answer.closedByServer).toBe(true);
  });

  it.each([
    ['a bad key', 'Authorization: Bearer nope\r\n'],
    ['an unknown key', `Authorization: Bearer ${UNKNOWN_KEY}\r\n`],
    ['neither a key nor a session cookie', ''],
    ['a session cookie that names no session', 'Cookie: better-auth.session_token=forged.signature\r\n'],
  ])('/api/trpc/emails.send with %s declaring 15 MB is answered 401 at once and closed', async (_, authorization) => {
    const answer = await exchange(portOf(app), [`POST /api/trpc/emails.send HTTP/1.1\r\nHost: x\r\n${authorization}Content-Type: application/json\r\nContent-Length: 15000000\r\n\r\n`]);
    expect(answer.status).toBe(401);
    expect(answer.body.error.data.envelope).toEqual({ status: 401, code: 'UNAUTHORIZED', error: expect.any(String) });
    expect(answer.answeredMs!).toBeLessThan(1_000);
    expect(answer.closedByServer).toBe(true);
  });

  it('a well-behaved client is served as before: its key is looked up and counted once', async () => {
    const first = await app.request('POST', '/api/api-keys', { key, body: { name: 'second' } });
    expect(first.status).toBe(201);
    expect(first.headers.get('ratelimit-remaining')).toBe('99');
    const second = await app.request('POST', '/api/templates', { key, body: { name: 'Welcome', subject: 'Hi {{ name }}', html: '<p>Hi</p>' } });
    expect(second.status).toBe(201);
    expect(second.headers.get('ratelimit-remaining')).toBe('98');
    // A trpc call with a key goes through the early check and the procedure on one admission too.
    const viaTrpc = await fetch(`${app.url}/api/trpc/apiKeys.create`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'third' }) });
    expect(viaTrpc.status, await viaTrpc.clone().text()).toBe(200);
    expect(viaTrpc.headers.get('ratelimit-remaining')).toBe('97');
  });
});

describe('point 4: each operation takes the body it needs', () => {
  it('a plain operation refuses a body past 64 KiB with 413, and closes', async () => {
    const body = JSON.stringify({ name: 'x'.repeat(BODY_LIMITS.small) });
    const answer = await exchange(portOf(app), [`POST /api/api-keys HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`, body]);
    expectEnvelope(answer, 413, 'PAYLOAD_TOO_LARGE');
    expect(answer.closedByServer).toBe(true);
  });

  it('a template of 4 MiB of html is taken (the content bound), one of 13 MiB is not', async () => {
    const html = `<p>${'a'.repeat(4 * 1024 * 1024)}</p>`;
    const taken = await app.request('POST', '/api/templates', { key, body: { name: 'Big', subject: 'Big', html } });
    expect(taken.status, taken.text.slice(0, 200)).toBe(201);
    const refused = await app.request('POST', '/api/templates', { key, body: { name: 'Too big', subject: 'x', html: 'a'.repeat(13 * 1024 * 1024) } });
    expect(refused.status).toBe(413);
    expect(refused.body).toEqual({ error: expect.stringContaining(String(BODY_LIMITS.content)), code: 'PAYLOAD_TOO_LARGE' });
  });

  it('a send with 10 MiB of attachments and 4 MiB of html fits the send bound', async () => {
    const attachment = Buffer.alloc(10 * 1024 * 1024 - 1024, 7).toString('base64');
    const body = { from: 'ada@example.com', to: 'bob@example.net', subject: 'Files', html: `<p>${'b'.repeat(4 * 1024 * 1024)}</p>`, attachments: [{ filename: 'data.bin', content: attachment }] };
    const verdict = await app.request('POST', '/api/emails/preflight', { key, body });
    // A dry run: the body was read whole and judged (the sender's domain is not registered here).
    expect(verdict.status, verdict.text.slice(0, 300)).toBe(200);
    expect(verdict.body.accepted).toBe(false);
  });
});

describe('point 5: long query values, request lines and header blocks', () => {
  it.each([
    ['/api/emails', 'to', 320],
    ['/api/emails', 'from', 320],
    ['/api/emails', 'tag', 513],
    ['/api/emails', 'cursor', 36],
    ['/api/suppressions', 'search', 254],
    ['/api/events', 'type', 1000],
    ['/api/templates', 'cursor', 36],
  ])('GET %s?%s= past its documented %i characters is a 400 naming it', async (path, name, max) => {
    const response = await app.request('GET', `${path}?${name}=${'a'.repeat(max + 1)}`, { key });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: expect.stringMatching(new RegExp(`^${name}`)), code: 'VALIDATION_ERROR' });
  });

  it('every string query parameter of every operation has a documented maximum length', async () => {
    const document = (await app.request('GET', '/docs/openapi.json')).body;
    const unbounded: string[] = [];
    for (const [path, item] of Object.entries<Record<string, any>>(document.paths)) {
      for (const [method, operation] of Object.entries<any>(item)) {
        for (const parameter of operation.parameters ?? []) {
          if (parameter.in !== 'query') continue;
          const schema = parameter.schema.type === 'array' ? parameter.schema.items : parameter.schema;
          // An enum is its own bound: each value is listed.
          if (schema.type === 'string' && !schema.enum && !(schema.maxLength > 0)) unbounded.push(`${method} ${path} ${parameter.name}`);
        }
      }
    }
    expect(unbounded).toEqual([]);
  });

  const paths = ['/api/emails?to=', '/api/health?x=', '/api/health/ready?x=', '/api/nowhere/', '/api/emails/', '/api/trpc/emails.list?input=', '/t/o/', '/dashboard?x='];
  it.each(paths)('a request target of 10 KiB is answered 414 within a second: %s', async (prefix) => {
    const target = `${prefix}${'a'.repeat(10 * 1024)}`;
    const answer = await exchange(portOf(app), [`GET ${target} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\n\r\n`]);
    expectEnvelope(answer, 414, 'URI_TOO_LONG');
    expect(answer.answeredMs!).toBeLessThan(1_000);
    expect(answer.closedByServer).toBe(true);
  });

  it.each(paths)('a request target of 64 KiB is answered 414 within a second: %s', async (prefix) => {
    const target = `${prefix}${'a'.repeat(64 * 1024)}`;
    const answer = await exchange(portOf(app), [`GET ${target} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\n\r\n`]);
    expectEnvelope(answer, 414, 'URI_TOO_LONG');
    expect(answer.answeredMs!).toBeLessThan(1_000);
    expect(answer.closedByServer).toBe(true);
    expect(answer.writeError).toBeNull();
  });

  it.each(['/api/health', '/api/emails'])('a 64 KiB header value is answered 431 within a second: %s', async (path) => {
    const answer = await exchange(portOf(app), [`GET ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nX-Filler: ${'a'.repeat(64 * 1024)}\r\n\r\n`]);
    expectEnvelope(answer, 431, 'HEADERS_TOO_LARGE');
    expect(answer.answeredMs!).toBeLessThan(1_000);
    expect(answer.closedByServer).toBe(true);
  });

  it('many headers that together pass the bound are answered 431', async () => {
    const headers = Array.from({ length: 60 }, (_, index) => `X-Filler-${index}: ${'b'.repeat(1_000)}\r\n`).join('');
    const answer = await exchange(portOf(app), [`GET /api/health HTTP/1.1\r\nHost: x\r\n${headers}\r\n`]);
    expectEnvelope(answer, 431, 'HEADERS_TOO_LARGE');
    expect(answer.closedByServer).toBe(true);
  });

  it('a long path parameter is answered quickly, well under the bound and just past it', async () => {
    const under = await exchange(portOf(app), [`GET /api/emails/${'a'.repeat(MAX_REQUEST_TARGET_BYTES - 100)} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nConnection: close\r\n\r\n`]);
    expectEnvelope(under, 400, 'VALIDATION_ERROR');
    expect(under.answeredMs!).toBeLessThan(1_000);
    const over = await exchange(portOf(app), [`GET /api/emails/${'a'.repeat(32_000)} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\n\r\n`]);
    expectEnvelope(over, 414, 'URI_TOO_LONG');
    expect(over.answeredMs!).toBeLessThan(1_000);
  });

  it('legitimate long URLs fit: an address of 251 characters in the path, a template preview with 2 KB of variables', async () => {
    const address = encodeURIComponent(`${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(50)}.example`);
    const data = await app.request('GET', `/api/recipients/${address}/data`, { key });
    // The operation itself answered: nobody by that address here.
    expect(data.body, data.text.slice(0, 200)).toEqual({ error: 'Data for this address not found', code: 'NOT_FOUND' });
    const template = await app.request('POST', '/api/templates', { key, body: { name: 'T', subject: 'Hi {{ name }}', html: '<p>{{ name }}</p>' } });
    const variables = encodeURIComponent(JSON.stringify({ name: 'Ada', notes: 'n'.repeat(2_000) }));
    const preview = await app.request('GET', `/api/templates/${template.body.id}/preview?variables=${variables}`, { key });
    expect(preview.status, preview.text.slice(0, 200)).toBe(200);
    expect(preview.body.subject).toBe('Hi Ada');
  });

  it('the bounds are what the documentation says', () => {
    expect(MAX_REQUEST_TARGET_BYTES).toBe(8 * 1024);
    expect(MAX_HEAD_BYTES).toBe(32 * 1024);
  });
});

describe('point 6: a refused chunked body gets its answer', () => {
  const batchHead = (authorization: string) => `POST /api/emails/batch HTTP/1.1\r\nHost: x\r\n${authorization}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`;

  it('2 MB chunked to /api/emails/batch with a key: 413 PAYLOAD_TOO_LARGE, then the connection closes, the client still writing', async () => {
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const answer = await exchange(portOf(app), [batchHead(`Authorization: Bearer ${key}\r\n`), ...chunkedBody(2_000_000)]);
      expectEnvelope(answer, 413, 'PAYLOAD_TOO_LARGE');
      expect(answer.head).toMatch(/\r\nconnection: close/i);
      expect(answer.closedByServer).toBe(true);
      expect(answer.writeError).toBeNull();
    }
  });

  it('2 MB chunked to /api/emails/batch without a key: 401 at once, then closed', async () => {
    const answer = await exchange(portOf(app), [batchHead(''), ...chunkedBody(2_000_000)]);
    expectEnvelope(answer, 401, 'UNAUTHORIZED');
    expect(answer.answeredMs!).toBeLessThan(1_000);
    expect(answer.closedByServer).toBe(true);
    expect(answer.writeError).toBeNull();
  });

  it('node:http, which reads the answer only after writing the body, gets the 413 too', async () => {
    const chunk = Buffer.alloc(65_536, 'x');
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const outcome = await new Promise<{ status?: number; body?: string; error?: string }>((resolve) => {
        const request = http.request(`${app.url}/api/emails/batch`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' } }, (response) => {
          let body = '';
          response.on('data', (data) => (body += data));
          response.on('end', () => resolve({ status: response.statusCode, body }));
        });
        request.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
        let written = 0;
        const write = () => {
          while (written < 32) {
            written += 1;
            if (!request.write(chunk)) return void request.once('drain', write);
          }
          request.end();
        };
        write();
      });
      expect(outcome).toEqual({ status: 413, body: expect.stringContaining('"code":"PAYLOAD_TOO_LARGE"') });
    }
  });
});

describe('point 11: health ignores its query', () => {
  it.each(['/api/health', '/api/health/ready'])('%s answers 200 whatever junk its query holds', async (path) => {
    for (const query of ['x=%00', 'x=a%00b&__proto__=1', '%00=%00', 'x=%ud800', 'x=%zz', `x=${'y'.repeat(4_000)}`]) {
      const response = await app.request('GET', `${path}?${query}`);
      expect(response.status, `${path}?${query}`).toBe(200);
      expect(response.body.status).toBe(path === '/api/health' ? 'ok' : 'ready');
    }
  });

  it('its document entries list what the listener may answer them, and nothing else refused', async () => {
    const document = (await app.request('GET', '/docs/openapi.json')).body;
    expect(Object.keys(document.paths['/health'].get.responses).sort()).toEqual(['200', '408', '414', '429', '431', '500']);
    expect(Object.keys(document.paths['/health/ready'].get.responses).sort()).toEqual(['200', '408', '414', '429', '431', '500', '503']);
    for (const [path, item] of Object.entries<Record<string, any>>(document.paths)) {
      for (const [method, operation] of Object.entries<any>(item)) {
        expect(Object.keys(operation.responses), `${method} ${path}`).toEqual(expect.arrayContaining(['408', '414', '431']));
      }
    }
  });
});

describe('point 4: slow clients and greedy ones', () => {
  let strict: TestApp;
  beforeAll(async () => {
    strict = await startTestApp({
      shareDatabaseWith: app,
      env: { HTTP_HEADERS_TIMEOUT_MS: '1000', HTTP_REQUEST_TIMEOUT_MS: '2000', MAX_CONNECTIONS_PER_ADDRESS: '4', CONNECTION_CAP_LOOPBACK: 'on' },
    });
  });
  afterAll(() => strict.close());

  it('a slowloris sending a header byte every 200 ms is answered 408 and cut off within the headers bound', async () => {
    const request = `GET /api/health HTTP/1.1\r\nHost: x\r\nX-Slow: ${'s'.repeat(100)}\r\n\r\n`;
    const answer = await exchange(portOf(strict), [...request], { gapMs: 200, waitMs: 5_000 });
    expectEnvelope(answer, 408, 'REQUEST_TIMEOUT');
    expect(answer.closedByServer).toBe(true);
    // 1 s bound, checked every 250 ms.
    expect(answer.answeredMs!).toBeLessThan(2_000);
  });

  it('a kept-alive connection idle for longer than the headers bound is still served (its bound is keepAliveTimeout)', async () => {
    const socket = net.connect(portOf(strict), '127.0.0.1');
    const ask = () =>
      new Promise<string>((resolve) => {
        socket.once('data', (chunk) => resolve(chunk.toString('latin1')));
        socket.write('GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n');
      });
    try {
      await new Promise((done) => socket.once('connect', done));
      expect(await ask()).toMatch(/^HTTP\/1\.1 200/);
      await new Promise((done) => setTimeout(done, 2_500));
      expect(socket.destroyed).toBe(false);
      expect(await ask()).toMatch(/^HTTP\/1\.1 200/);
    } finally {
      socket.destroy();
    }
  });

  it('a connection that sends nothing is closed within the headers bound', async () => {
    const answer = await exchange(portOf(strict), [], { waitMs: 5_000 });
    expect(answer.closedByServer).toBe(true);
    expect(answer.closedMs!).toBeLessThan(2_500);
  });

  it('a body that stops arriving is answered 408 in the envelope and closed within the request bound', async () => {
    const answer = await exchange(portOf(strict), [`POST /api/api-keys HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"name":`], { waitMs: 6_000 });
    expectEnvelope(answer, 408, 'REQUEST_TIMEOUT');
    expect(answer.closedByServer).toBe(true);
    expect(answer.answeredMs!).toBeLessThan(3_500);
  });

  it('past the open connections of one address, the next is answered 429 at once and closed; the others are served', async () => {
    const held = await Promise.all(
      Array.from({ length: 4 }, () => new Promise<net.Socket>((resolve) => {
        const socket = net.connect(portOf(strict), '127.0.0.1', () => resolve(socket));
      })),
    );
    try {
      const refused = await exchange(portOf(strict), ['GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n']);
      expectEnvelope(refused, 429, 'RATE_LIMITED');
      expect(refused.head).toMatch(/\r\nretry-after: 1/i);
      expect(refused.answeredMs!).toBeLessThan(1_000);
      expect(refused.closedByServer).toBe(true);
      // The held ones still work.
      const served = await new Promise<string>((resolve) => {
        held[0]!.once('data', (chunk) => resolve(chunk.toString('latin1')));
        held[0]!.write('GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n');
      });
      expect(served).toMatch(/^HTTP\/1\.1 200/);
    } finally {
      for (const socket of held) socket.destroy();
    }
    // Once they are closed, the address may connect again.
    await new Promise((done) => setTimeout(done, 100));
    expect((await strict.request('GET', '/api/health')).status).toBe(200);
  });

  it('loopback is exempt from the cap by default, so benchmarks from 127.0.0.1 are not throttled', async () => {
    const held = await Promise.all(Array.from({ length: 80 }, () => new Promise<net.Socket>((resolve) => {
      const socket = net.connect(portOf(app), '127.0.0.1', () => resolve(socket));
    })));
    try {
      expect((await app.request('GET', '/api/health')).status).toBe(200);
    } finally {
      for (const socket of held) socket.destroy();
    }
  });
});

describe("the edge's configuration", () => {
  it('takes its bounds from the environment, with defaults, and refuses nonsense naming the variable', () => {
    expect(loadConfig({}).edge).toEqual(DEFAULT_EDGE_LIMITS);
    expect(loadConfig({ HTTP_HEADERS_TIMEOUT_MS: '5000', HTTP_REQUEST_TIMEOUT_MS: '9000', MAX_CONNECTIONS_PER_ADDRESS: '8', CONNECTION_CAP_LOOPBACK: 'on' }).edge).toEqual({
      headersTimeoutMs: 5000,
      requestTimeoutMs: 9000,
      maxConnectionsPerAddress: 8,
      capLoopback: true,
    });
    // The headers are part of the request: its bound is never the shorter.
    expect(loadConfig({ HTTP_HEADERS_TIMEOUT_MS: '5000', HTTP_REQUEST_TIMEOUT_MS: '1000' }).edge.requestTimeoutMs).toBe(5000);
    expect(() => loadConfig({ MAX_CONNECTIONS_PER_ADDRESS: '0' })).toThrow(/MAX_CONNECTIONS_PER_ADDRESS/);
    expect(() => loadConfig({ HTTP_HEADERS_TIMEOUT_MS: 'soon' })).toThrow(/HTTP_HEADERS_TIMEOUT_MS/);
    expect(() => loadConfig({ CONNECTION_CAP_LOOPBACK: 'yes' })).toThrow(/CONNECTION_CAP_LOOPBACK/);
  });
});

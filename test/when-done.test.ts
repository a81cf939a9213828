import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { whenDone, type RequestOutcome } from '@/server/http/when-done';

// The one hook of the access log and the request metrics (server/http/when-done.ts), on a real
// loopback server: called once, with the status sent or 499 for a client that left first.
let server: http.Server | undefined;
afterEach(async () => {
  if (!server) return;
  server.closeAllConnections();
  await new Promise((resolve) => server!.close(resolve));
});

async function listen(handle: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  server = http.createServer(handle);
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

describe('whenDone', () => {
  it('reports an answered request once, with its status and how long it took', async () => {
    const outcomes: RequestOutcome[] = [];
    const url = await listen((_req, res) => {
      whenDone(res, (outcome) => outcomes.push(outcome));
      setTimeout(() => {
        res.writeHead(201);
        res.end('made');
      }, 20);
    });
    const response = await fetch(url);
    expect(await response.text()).toBe('made');
    await settle();
    expect(outcomes).toHaveLength(1);
    expect(outcomes[0]!.status).toBe(201);
    expect(outcomes[0]!.elapsedMs).toBeGreaterThanOrEqual(15);
  });

  it('reports a client that went away before the answer as 499, once', async () => {
    const outcomes: RequestOutcome[] = [];
    let arrived!: () => void;
    const waiting = new Promise<void>((resolve) => (arrived = resolve));
    const url = await listen((_req, res) => {
      whenDone(res, (outcome) => outcomes.push(outcome));
      arrived();
    });
    const controller = new AbortController();
    const request = fetch(url, { signal: controller.signal }).catch((error: unknown) => error);
    await waiting;
    controller.abort();
    expect(await request).toBeInstanceOf(Error);
    await settle();
    expect(outcomes.map((outcome) => outcome.status)).toEqual([499]);
  });
});

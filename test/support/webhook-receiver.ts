import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface ReceivedHook {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** When it arrived (performance.now()). */
  at: number;
}

type Answer = { status: number; body?: string; headers?: Record<string, string>; delayMs?: number };

/**
 * A real HTTP endpoint on loopback that records every request it gets and answers what the test
 * says (200 by default), for webhook deliveries to land on.
 */
export async function startWebhookReceiver(answer: (hook: ReceivedHook) => Answer = () => ({ status: 200 })) {
  const received: ReceivedHook[] = [];
  let respond = answer;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const hook = { path: req.url ?? '/', headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: performance.now() };
      received.push(hook);
      const { status, body = 'ok', headers = {}, delayMs = 0 } = respond(hook);
      const send = () => {
        if (res.destroyed) return;
        res.writeHead(status, { 'content-type': 'text/plain', ...headers });
        res.end(body);
      };
      if (delayMs > 0) setTimeout(send, delayMs);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    received,
    /** Changes what later requests are answered. */
    answerWith(next: (hook: ReceivedHook) => Answer) {
      respond = next;
    },
    /** The parsed body of a request, verified with `standardwebhooks` and this secret (throws if the signature does not verify). */
    verify(hook: ReceivedHook, secret: string): { type: string; createdAt: string; data: Record<string, unknown> } {
      return new Webhook(secret).verify(hook.body, hook.headers as Record<string, string>) as never;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type WebhookReceiver = Awaited<ReturnType<typeof startWebhookReceiver>>;

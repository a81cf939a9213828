import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { generate } from 'selfsigned';

export interface LoopbackServer {
  port: number;
  /** TCP connections accepted so far (a refused request must leave this at 0). */
  connections(): number;
  /** Requests received, as "METHOD /path". */
  requests: string[];
  close(): Promise<void>;
}

export type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

/** A self-signed certificate for these host names, with its PEM to trust as `ca`. */
export async function selfSignedCertificate(hostNames: string[]): Promise<{ key: string; cert: string }> {
  const pems = await generate([{ name: 'commonName', value: hostNames[0]! }], {
    keyType: 'ec',
    algorithm: 'sha256',
    extensions: [
      { name: 'basicConstraints', cA: true },
      { name: 'subjectAltName', altNames: hostNames.map((value) => ({ type: 2 as const, value })) },
    ],
  });
  return { key: pems.private, cert: pems.cert };
}

/** An HTTP server, or an HTTPS one when given a certificate, on 127.0.0.1 at a random port. */
export async function startLoopbackServer(handler: Handler, tlsOptions?: { key: string; cert: string }): Promise<LoopbackServer> {
  let connections = 0;
  const requests: string[] = [];
  const listener: Handler = (req, res) => {
    requests.push(`${req.method} ${req.url}`);
    handler(req, res);
  };
  const server = tlsOptions ? https.createServer(tlsOptions, listener) : http.createServer(listener);
  // TCP accepts, so a connection refused later by TLS is counted too.
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    connections: () => connections,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

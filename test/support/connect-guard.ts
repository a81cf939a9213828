import net from 'node:net';
import tls from 'node:tls';
import { vi } from 'vitest';

export interface ConnectGuard {
  /** Every outgoing connection attempted through node:net / node:tls, in order. */
  attempts: Array<{ host: string; port: number }>;
  restore(): void;
}

const isLoopback = (host: string) => /^127\./.test(host) || host === '::1' || host === '::ffff:127.0.0.1' || host === 'localhost';

/**
 * Counts every outgoing TCP/TLS connection (undici dials through net.connect and tls.connect) and
 * makes any attempt at a non-loopback address fail before a packet leaves: tests may only ever
 * reach loopback, even when the code under test is wrong.
 */
export function guardConnections(): ConnectGuard {
  const attempts: ConnectGuard['attempts'] = [];
  const wrap = <F extends (...args: any[]) => any>(target: any, method: string) => {
    const original = target[method] as F;
    return vi.spyOn(target, method as never).mockImplementation(((...args: any[]) => {
      const options = typeof args[0] === 'object' && args[0] !== null ? args[0] : { port: args[0], host: args[1] };
      const host = String(options.host ?? 'localhost');
      attempts.push({ host, port: Number(options.port) });
      if (!isLoopback(host)) throw new Error(`test guard: refused to connect to non-loopback ${host}`);
      return original.apply(target, args);
    }) as never);
  };
  const spies = [wrap(net, 'connect'), wrap(net, 'createConnection'), wrap(tls, 'connect')];
  return { attempts, restore: () => spies.forEach((spy) => spy.mockRestore()) };
}

import dns2 from 'dns2';

const { Packet } = dns2;

type RecordType = 'A' | 'AAAA' | 'TXT';

// dns2 encodes only hex groups; the URL parser rewrites "::ffff:10.0.0.1" as "::ffff:a00:1".
const hexIpv6 = (address: string) => new URL(`http://[${address}]/`).hostname.slice(1, -1);

export interface LoopbackDns {
  /** `127.0.0.1:<port>`, for DNS_SERVERS / a policy's dnsServers. */
  server: string;
  /** Replaces the records of one name and type; a TXT value may be a string or its parts. */
  set(name: string, type: RecordType, values: Array<string | string[]>): void;
  /** Questions about this name get no answer at all (a DNS server that times out). */
  mute(name: string): void;
  clear(): void;
  /** Every question asked, in order ("A provider.example.com"). */
  queries: string[];
  close(): Promise<void>;
}

/**
 * A real DNS server (dns2, UDP) on 127.0.0.1 answering only what the test set: NXDOMAIN for an
 * unknown name, an empty answer for a known name without that type. TTL 0 so nothing is cached.
 */
export async function startLoopbackDns(): Promise<LoopbackDns> {
  const records = new Map<string, Array<string | string[]>>();
  const key = (name: string, type: string) => `${name.toLowerCase().replace(/\.$/, '')} ${type}`;
  const queries: string[] = [];
  const muted = new Set<string>();
  const server = dns2.createServer({
    udp: true,
    handle(request, send) {
      const response = Packet.createResponseFromRequest(request);
      response.header.aa = 1;
      for (const question of request.questions) {
        const type = Object.entries(Packet.TYPE).find(([, value]) => value === question.type)?.[0] ?? String(question.type);
        queries.push(`${type} ${question.name.toLowerCase()}`);
        if (muted.has(key(question.name, ''))) return;
        const known = [...records.keys()].some((k) => k.startsWith(`${key(question.name, '')}`));
        if (!known) response.header.rcode = 3;
        for (const value of records.get(key(question.name, type)) ?? []) {
          const base = { name: question.name, type: question.type, class: Packet.CLASS.IN, ttl: 0 };
          const address = type === 'AAAA' ? hexIpv6(String(value)) : value;
          response.answers.push(type === 'TXT' ? ({ ...base, data: value } as any) : ({ ...base, address } as any));
        }
      }
      void send(response);
    },
  });
  const addresses = await server.listen({ udp: { port: 0, address: '127.0.0.1' } });
  return {
    server: `127.0.0.1:${addresses.udp!.port}`,
    set: (name, type, values) => void records.set(key(name, type), values),
    mute: (name) => void muted.add(key(name, '')),
    clear: () => {
      records.clear();
      muted.clear();
      queries.length = 0;
    },
    queries,
    close: () => server.close(),
  };
}

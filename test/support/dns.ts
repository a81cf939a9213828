import dns2 from 'dns2';

const { Packet } = dns2;

type RecordType = 'A' | 'AAAA' | 'TXT' | 'MX';
type Value = string | string[] | { exchange: string; priority: number };

// dns2 encodes only hex groups; the URL parser rewrites "::ffff:10.0.0.1" as "::ffff:a00:1".
const hexIpv6 = (address: string) => new URL(`http://[${address}]/`).hostname.slice(1, -1);

/**
 * A real DNS server (dns2, UDP) on 127.0.0.1 answering only what the test set: NXDOMAIN for an
 * unknown name, no data for a known name without the asked type, SERVFAIL or silence on demand.
 * TTL 0, so no resolver caches an answer between checks.
 */
export async function startDnsServer(options: { port?: number } = {}) {
  const records = new Map<string, Value[]>();
  const failing = new Set<string>();
  const muted = new Set<string>();
  const queries: string[] = [];
  const norm = (name: string) => name.toLowerCase().replace(/\.$/, '');
  const key = (name: string, type: RecordType) => `${norm(name)} ${type}`;
  const known = (name: string) => [...records.keys()].some((k) => k.startsWith(`${norm(name)} `));

  const server = dns2.createServer({
    udp: true,
    handle(request, send) {
      const response = Packet.createResponseFromRequest(request);
      response.header.aa = 1;
      for (const question of request.questions) {
        const type = (Object.entries(Packet.TYPE).find(([, value]) => value === question.type)?.[0] ?? String(question.type)) as RecordType;
        queries.push(`${type} ${norm(question.name)}`);
        if (muted.has(norm(question.name))) return;
        if (failing.has(norm(question.name))) response.header.rcode = 2;
        else if (!known(question.name)) response.header.rcode = 3;
        else {
          for (const value of records.get(key(question.name, type)) ?? []) {
            const base = { name: question.name, type: question.type, class: Packet.CLASS.IN, ttl: 0 };
            if (type === 'TXT') response.answers.push({ ...base, data: value } as never);
            else if (type === 'MX') response.answers.push({ ...base, ...(value as object) } as never);
            else response.answers.push({ ...base, address: type === 'AAAA' ? hexIpv6(String(value)) : value } as never);
          }
        }
      }
      void send(response);
    },
  });
  const addresses = await server.listen({ udp: { port: options.port ?? 0, address: '127.0.0.1' } });
  const add = (name: string, type: RecordType, value: Value) => records.set(key(name, type), [...(records.get(key(name, type)) ?? []), value]);

  return {
    /** `127.0.0.1:<port>`, for DNS_SERVERS or an outbound policy's dnsServers. */
    address: `127.0.0.1:${addresses.udp!.port}`,
    /** Replaces the records of one name and type; a TXT value may be a string or its 255-byte parts. */
    set: (name: string, type: Exclude<RecordType, 'MX'>, values: Array<string | string[]>) => void records.set(key(name, type), values),
    txt: (name: string, ...strings: string[]) => add(name, 'TXT', strings),
    mx: (name: string, exchange: string, priority = 10) => add(name, 'MX', { exchange, priority }),
    a: (name: string, address: string) => add(name, 'A', address),
    remove: (name: string) => {
      for (const k of [...records.keys()]) if (k.startsWith(`${norm(name)} `)) records.delete(k);
    },
    /** The server answers SERVFAIL for this name (a DNS that cannot tell). */
    servfail: (name: string, on = true) => void (on ? failing.add(norm(name)) : failing.delete(norm(name))),
    /** Questions about this name get no answer at all (a DNS server that times out). */
    mute: (name: string) => void muted.add(norm(name)),
    /** Every question asked, in order ("A provider.example.com"). */
    queries,
    clear: () => {
      records.clear();
      failing.clear();
      muted.clear();
      queries.length = 0;
    },
    close: () => server.close(),
  };
}

export type DnsServer = Awaited<ReturnType<typeof startDnsServer>>;

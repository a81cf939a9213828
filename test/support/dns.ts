import dns2 from 'dns2';

const { Packet } = dns2;

type Answer =
  | { type: 'A' | 'AAAA'; address: string }
  | { type: 'TXT'; strings: string[] }
  | { type: 'MX'; exchange: string; priority: number };

/**
 * A real DNS server on loopback (UDP) serving a zone the test edits: unknown names are NXDOMAIN,
 * known names without the asked type answer no data, and a name can be made to SERVFAIL.
 */
export async function startDnsServer(options: { port?: number } = {}) {
  const zone = new Map<string, Answer[]>();
  const failing = new Set<string>();
  const key = (name: string) => name.toLowerCase().replace(/\.$/, '');

  const server = dns2.createServer({
    udp: true,
    handle: (request, send) => {
      const response = Packet.createResponseFromRequest(request);
      const question = request.questions[0];
      if (!question) return send(response);
      const name = key(question.name);
      if (failing.has(name)) {
        response.header.rcode = 2;
        return send(response);
      }
      const answers = zone.get(name);
      if (!answers) {
        response.header.rcode = 3;
        return send(response);
      }
      for (const answer of answers) {
        const type = Packet.TYPE[answer.type];
        if (type !== question.type) continue;
        const base = { name: question.name, type, class: Packet.CLASS.IN, ttl: 60 };
        if (answer.type === 'TXT') response.answers.push({ ...base, data: answer.strings } as never);
        else if (answer.type === 'MX') response.answers.push({ ...base, exchange: answer.exchange, priority: answer.priority } as never);
        else response.answers.push({ ...base, address: answer.address } as never);
      }
      send(response);
    },
  });
  const addresses = await server.listen({ udp: { port: options.port ?? 0, address: '127.0.0.1' } });
  const add = (name: string, answer: Answer) => zone.set(key(name), [...(zone.get(key(name)) ?? []), answer]);

  return {
    /** `host:port` for DNS_SERVERS. */
    address: `127.0.0.1:${addresses.udp!.port}`,
    txt: (name: string, ...strings: string[]) => add(name, { type: 'TXT', strings }),
    mx: (name: string, exchange: string, priority = 10) => add(name, { type: 'MX', exchange, priority }),
    a: (name: string, address: string) => add(name, { type: 'A', address }),
    remove: (name: string) => zone.delete(key(name)),
    servfail: (name: string, on = true) => (on ? failing.add(key(name)) : failing.delete(key(name))),
    clear: () => {
      zone.clear();
      failing.clear();
    },
    close: () => server.close(),
  };
}

export type DnsServer = Awaited<ReturnType<typeof startDnsServer>>;

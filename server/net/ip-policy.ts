import net from 'node:net';

/**
 * Which IP addresses outbound requests (webhooks, Domain Connect) may reach: public unicast only,
 * so that a customer-supplied URL cannot make this service probe its own network, a cloud
 * metadata endpoint or another customer's private range. The operator may open ranges for tests
 * (WEBHOOK_ALLOW_PRIVATE_CIDRS).
 */

type Family = 'ipv4' | 'ipv6';

interface Range {
  family: Family;
  network: string;
  prefix: number;
  label: string;
}

const range = (cidr: string, label: string): Range => {
  const parsed = parseCidr(cidr);
  return { ...parsed, label: `${label} (${cidr})` };
};

const LOOPBACK_V4 = range('127.0.0.0/8', 'a loopback address');
const LOOPBACK_V6 = range('::1/128', 'a loopback address');

// IANA special-purpose registries (RFC 6890 and successors): everything not globally reachable.
const V4_RANGES: Range[] = [
  range('0.0.0.0/8', 'a "this network" address'),
  range('10.0.0.0/8', 'a private network address'),
  range('100.64.0.0/10', 'a carrier-grade NAT address'),
  LOOPBACK_V4,
  range('169.254.0.0/16', 'a link-local address (where cloud metadata services live)'),
  range('172.16.0.0/12', 'a private network address'),
  range('192.0.0.0/24', 'an IETF protocol address'),
  range('192.0.2.0/24', 'a documentation address'),
  range('192.88.99.0/24', 'a 6to4 relay address'),
  range('192.168.0.0/16', 'a private network address'),
  range('198.18.0.0/15', 'a benchmarking address'),
  range('198.51.100.0/24', 'a documentation address'),
  range('203.0.113.0/24', 'a documentation address'),
  range('224.0.0.0/4', 'a multicast address'),
  range('240.0.0.0/4', 'a reserved or broadcast address'),
];

// Only 2000::/3 is global unicast; inside it, these blocks are not globally reachable.
const V6_RANGES: Range[] = [
  range('::/128', 'the unspecified address'),
  LOOPBACK_V6,
  range('100::/64', 'a discard-only address'),
  range('2001::/23', 'an IETF protocol address (Teredo, benchmarking, ORCHID)'),
  range('2001:db8::/32', 'a documentation address'),
  range('3fff::/20', 'a documentation address'),
  range('5f00::/16', 'a segment-routing address'),
  range('fc00::/7', 'a unique local (private) address'),
  range('fe80::/10', 'a link-local address'),
  range('fec0::/10', 'a site-local address'),
  range('ff00::/8', 'a multicast address'),
];

const GLOBAL_UNICAST_V6 = parseCidr('2000::/3');

function blockListOf(ranges: Array<Pick<Range, 'family' | 'network' | 'prefix'>>): net.BlockList {
  const list = new net.BlockList();
  for (const r of ranges) list.addSubnet(r.network, r.prefix, r.family);
  return list;
}

const V4_LISTS = V4_RANGES.map((r) => ({ label: r.label, list: blockListOf([r]) }));
const V6_LISTS = V6_RANGES.map((r) => ({ label: r.label, list: blockListOf([r]) }));
const GLOBAL_V6_LIST = blockListOf([GLOBAL_UNICAST_V6]);
const LOOPBACK_LIST = blockListOf([LOOPBACK_V4, LOOPBACK_V6]);

/** Parses "10.0.0.0/8", "fd00::/8" or a bare address (a /32 or /128); throws a message a person can act on. */
export function parseCidr(text: string): { family: Family; network: string; prefix: number } {
  const [address = '', prefixText, extra] = text.trim().split('/');
  const version = net.isIP(address);
  const max = version === 4 ? 32 : 128;
  const prefix = prefixText === undefined ? max : Number(prefixText);
  if (!version || extra !== undefined || !/^\d{1,3}$/.test(prefixText ?? String(max)) || prefix > max) {
    throw new Error(`"${text}" is not a CIDR range (write it like 10.0.0.0/8 or fd00::/8)`);
  }
  return { family: version === 4 ? 'ipv4' : 'ipv6', network: address, prefix };
}

/** The 16 bytes of an IPv6 address (zone id dropped), or null if it is not one. */
function ipv6Bytes(ip: string): number[] | null {
  const address = ip.split('%')[0]!;
  if (net.isIPv6(address) === false) return null;
  let text = address;
  const tail: number[] = [];
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    tail.push(...dotted[1]!.split('.').map(Number));
    text = text.slice(0, -dotted[1]!.length) + (text.endsWith(':' + dotted[1]) ? '0:0' : '');
  }
  const [head = '', rest] = text.split('::');
  const groups = (part: string) => (part ? part.split(':').filter(Boolean).map((g) => parseInt(g, 16)) : []);
  const left = groups(head);
  const right = rest === undefined ? [] : groups(rest);
  const missing = 8 - left.length - right.length;
  const words = [...left, ...Array<number>(rest === undefined ? 0 : missing).fill(0), ...right];
  const bytes = words.flatMap((w) => [w >> 8, w & 0xff]);
  if (tail.length) bytes.splice(12, 4, ...tail);
  return bytes.length === 16 ? bytes : null;
}

const v4FromBytes = (b: number[]) => b.join('.');

/**
 * An IPv4 address carried inside an IPv6 one that a connection would in effect reach:
 * IPv4-mapped (::ffff:a.b.c.d), NAT64 (64:ff9b::a.b.c.d) and 6to4 (2002:aabb:ccdd::).
 */
function embeddedIpv4(ip: string): { v4: string; how: string } | null {
  const b = ipv6Bytes(ip);
  if (!b) return null;
  const zeros = (from: number, to: number) => b.slice(from, to).every((x) => x === 0);
  if (zeros(0, 10) && b[10] === 0xff && b[11] === 0xff) return { v4: v4FromBytes(b.slice(12)), how: 'IPv4-mapped' };
  if (b[0] === 0x00 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b && zeros(4, 12)) return { v4: v4FromBytes(b.slice(12)), how: 'NAT64' };
  if (b[0] === 0x20 && b[1] === 0x02) return { v4: v4FromBytes(b.slice(2, 6)), how: '6to4' };
  return null;
}

/**
 * Why an address is not public ("a private network address (10.0.0.0/8)"), or null when it is a
 * public unicast address.
 */
export function classifyAddress(ip: string): string | null {
  const version = net.isIP(ip);
  if (version === 4) return V4_LISTS.find((r) => r.list.check(ip, 'ipv4'))?.label ?? null;
  if (version !== 6) return 'not an IP address';
  const address = ip.split('%')[0]!;
  const embedded = embeddedIpv4(address);
  if (embedded) {
    const inner = classifyAddress(embedded.v4);
    return inner ? `the ${embedded.how} form of ${embedded.v4}, ${inner}` : null;
  }
  const special = V6_LISTS.find((r) => r.list.check(address, 'ipv6'));
  if (special) return special.label;
  if (!GLOBAL_V6_LIST.check(address, 'ipv6')) return 'an address outside the global unicast range (2000::/3)';
  return null;
}

/**
 * A peer on this machine: 127.0.0.0/8, ::1, or the IPv4-mapped form of a 127 address (how a
 * dual-stack listener sees an IPv4 loopback client). NAT64 and 6to4 forms are not: a connection
 * from one of those came through a translator, not from here.
 */
export function isLoopbackAddress(ip: string | undefined): boolean {
  if (!ip) return false;
  const version = net.isIP(ip);
  if (version === 4) return LOOPBACK_LIST.check(ip, 'ipv4');
  if (version !== 6) return false;
  const address = ip.split('%')[0]!;
  const embedded = embeddedIpv4(address);
  if (embedded) return embedded.how === 'IPv4-mapped' && LOOPBACK_LIST.check(embedded.v4, 'ipv4');
  return LOOPBACK_LIST.check(address, 'ipv6');
}

const allowListCache = new Map<string, net.BlockList>();

function allowList(cidrs: string[]): net.BlockList {
  const key = cidrs.join(',');
  let list = allowListCache.get(key);
  if (!list) {
    list = blockListOf(cidrs.map(parseCidr));
    if (allowListCache.size > 50) allowListCache.clear();
    allowListCache.set(key, list);
  }
  return list;
}

/** Inside one of the operator's allowed ranges (an IPv4-mapped address counts as its IPv4 form). */
export function isAllowedPrivate(ip: string, allowCidrs: string[]): boolean {
  if (allowCidrs.length === 0) return false;
  const list = allowList(allowCidrs);
  const version = net.isIP(ip);
  if (version === 4) return list.check(ip, 'ipv4');
  if (version !== 6) return false;
  const address = ip.split('%')[0]!;
  const embedded = embeddedIpv4(address);
  return list.check(address, 'ipv6') || (embedded?.how === 'IPv4-mapped' && list.check(embedded.v4, 'ipv4'));
}

/**
 * True for a public unicast address, or one inside `allowCidrs` (the operator's test-only
 * allow-list). False for loopback, private, link-local, CGNAT, unique-local, multicast,
 * unspecified, reserved and documentation ranges, and IPv6 forms embedding any of those.
 */
export function isPublicAddress(ip: string, allowCidrs: string[] = []): boolean {
  if (isAllowedPrivate(ip, allowCidrs)) return true;
  return classifyAddress(ip) === null;
}

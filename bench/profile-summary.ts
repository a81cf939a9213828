/**
 * Reads a V8 .cpuprofile (BENCH_PROFILE=1 npm run bench writes them to bench/results/profiles)
 * and prints where the time went: self time by function, and inclusive time by package
 * (node_modules/<package>, node internals, the project's own files).
 *
 *   npx tsx bench/profile-summary.ts bench/results/profiles/rest-<time>.cpuprofile [top=25]
 *     [--from <s> --to <s>]   only the samples between these seconds after the profile started
 *                             (`--timeline` prints the busy share of each second, to find them)
 *     [--steps]               the admit path's steps instead (docs/benchmarks.md, "The admit
 *                             path's budget"): each sample counts for the step frame nearest its
 *                             leaf, the pg driver's own frames included
 */
import fs from 'node:fs';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

const args = process.argv.slice(2);
const option = (name: string) => {
  const at = args.indexOf(name);
  return at === -1 ? undefined : args.splice(at, 2)[1];
};
const flag = (name: string) => {
  const at = args.indexOf(name);
  if (at !== -1) args.splice(at, 1);
  return at !== -1;
};
const fromS = Number(option('--from') ?? 0);
const toS = Number(option('--to') ?? Infinity);
const steps = flag('--steps');
const timeline = flag('--timeline');
const file = args[0];
if (!file) {
  console.error('usage: tsx bench/profile-summary.ts <file.cpuprofile> [top] [--from s --to s] [--steps] [--timeline]');
  process.exit(2);
}
const top = Number(args[1] ?? 25);
const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as Profile;

const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const parent = new Map<number, number>();
for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);

const selfUs = new Map<number, number>();
let clock = profile.startTime;
const perSecond = new Map<number, { busy: number; idle: number }>();
profile.samples.forEach((id, i) => {
  const delta = profile.timeDeltas[i] ?? 0;
  clock += delta;
  const second = (clock - profile.startTime) / 1e6;
  const idle = byId.get(id)!.callFrame.functionName === '(idle)';
  const bucket = perSecond.get(Math.floor(second)) ?? { busy: 0, idle: 0 };
  bucket[idle ? 'idle' : 'busy'] += delta;
  perSecond.set(Math.floor(second), bucket);
  if (second < fromS || second > toS) return;
  selfUs.set(id, (selfUs.get(id) ?? 0) + delta);
});
const totalUs = [...selfUs.values()].reduce((a, b) => a + b, 0);

if (timeline) {
  for (const [second, { busy, idle }] of [...perSecond].sort((a, b) => a[0] - b[0])) console.log(`${String(second).padStart(4)} s  ${((busy / Math.max(1, busy + idle)) * 100).toFixed(0).padStart(3)} % busy`);
  process.exit(0);
}

/** The admit path's steps, nearest the leaf first; the first whose pattern a frame matches takes the sample. */
const STEPS: Array<[string, RegExp]> = [
  ['garbage collection', /garbage collector/],
  ['pg driver: building, sending and reading queries', /node_modules\/(postgres|drizzle-orm)\/|\/db\//],
  ['key admission (admitApiKey, rate-limit headers)', /admitApiKey|admitRequestKey|admitBearer|early-auth|applyRateLimit/],
  ['send context read (loadSendContext)', /loadSendContext/],
  ['store (coalesced statement, limits)', /storeSingle|storeEmails|coalesced-store|group-commit|storeWithinLimits|within-limits|reservation/],
  ['checks (evaluateSend, permits, recipients)', /evaluateSend|checks\.ts|permitWithin|recipient-domains|sender-brands|list-shape|check-batch|sendingLimits|ceiling/],
  ['draft (row, ids, history payload)', /draftEmail|server\/ids|uuidv7|mail\/message|template-content|address-hash/],
  ['wire schema (zod parse, toSendEmailInput)', /inputValidatorMiddleware|routers\/emails\/wire|batch-items|node_modules\/zod\//],
  ['answer (zod output check, JSON, socket write)', /outputValidatorMiddleware|sendJson|respond\.ts/],
  ['tRPC procedure chain', /@trpc\/server|rest-procedure|server\/trpc\//],
  ['body read, JSON parse, hostile-input check', /readJsonBody|readRaw|checkJsonBody|http\/body\.ts/],
  ['access log line', /request-log|node_modules\/(pino|sonic-boom)\//],
  ['request metrics', /request-metrics|prom-client|metrics\/metrics/],
  ['routing, request id, headers, address stamp', /server\/http\//],
];
/** Where a sample goes when no step's frame is on its stack: node's own HTTP and socket work. */
const NODE_IO: [string, RegExp] = ['node:http parsing, socket reads and writes', /node:_http_|node:net|node:internal\/streams|node:events|stream_base/];

if (steps) {
  const byStep = new Map<string, number>();
  for (const [id, us] of selfUs) {
    if (byId.get(id)!.callFrame.functionName === '(idle)') continue;
    let step: string | null = null;
    let io = false;
    search: for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const frame = byId.get(cur)!.callFrame;
      const where = `${frame.functionName} ${frame.url}`;
      io ||= NODE_IO[1].test(where);
      for (const [name, pattern] of STEPS) {
        if (pattern.test(where)) {
          step = name;
          break search;
        }
      }
    }
    step ??= io ? NODE_IO[0] : 'other';
    byStep.set(step, (byStep.get(step) ?? 0) + us);
  }
  const busy = [...byStep.values()].reduce((a, b) => a + b, 0);
  console.log(`${file}: ${(busy / 1e6).toFixed(2)} s busy between ${fromS} and ${toS} s`);
  for (const [name, us] of [...byStep].sort((a, b) => b[1] - a[1])) console.log(`${((us / busy) * 100).toFixed(1).padStart(5)} %  ${name}`);
  process.exit(0);
}

const packageOf = (url: string): string => {
  if (!url) return '(native/V8)';
  const nm = url.lastIndexOf('node_modules/');
  if (nm !== -1) {
    const rest = url.slice(nm + 'node_modules/'.length).split('/');
    return rest[0]!.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]!;
  }
  if (url.startsWith('node:')) return 'node internals';
  const m = /\/work\/[^/]+\/[^/]+\/([^/]+)\//.exec(url) ?? /file:\/\/.*?\/(server|db|bench)\//.exec(url);
  return m ? `project ${m[1]}/` : url;
};
const label = (frame: CallFrame) => {
  const name = frame.functionName || '(anonymous)';
  if (!frame.url) return name;
  const short = frame.url.replace(/^file:\/\//, '').replace(/^.*node_modules\//, '~/');
  return `${name}  ${short}:${frame.lineNumber + 1}`;
};

const self = new Map<string, number>();
const inclusivePackage = new Map<string, number>();
for (const [id, us] of selfUs) {
  const node = byId.get(id)!;
  self.set(label(node.callFrame), (self.get(label(node.callFrame)) ?? 0) + us);
  // Count each package once per stack, so recursion does not inflate it.
  const seen = new Set<string>();
  for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
    const frame = byId.get(cur)!.callFrame;
    if (frame.functionName === '(root)') break;
    const pkg = frame.functionName === '(garbage collector)' ? '(garbage collector)' : frame.functionName === '(idle)' ? '(idle)' : packageOf(frame.url);
    if (!seen.has(pkg)) {
      seen.add(pkg);
      inclusivePackage.set(pkg, (inclusivePackage.get(pkg) ?? 0) + us);
    }
  }
}

const pct = (us: number) => `${((us / totalUs) * 100).toFixed(1).padStart(5)} %`;
console.log(`${file}: ${(totalUs / 1e6).toFixed(1)} s sampled`);
console.log('\nself time by function:');
for (const [name, us] of [...self].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${pct(us)}  ${name}`);
console.log('\ninclusive time by package (a sample counts for every package on its stack):');
for (const [name, us] of [...inclusivePackage].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${pct(us)}  ${name}`);

/**
 * Reads a V8 .cpuprofile (BENCH_PROFILE=1 npm run bench writes them to bench/results/profiles)
 * and prints where the time went: self time by function, and inclusive time by package
 * (node_modules/<package>, node internals, the project's own files).
 *
 *   npx tsx bench/profile-summary.ts bench/results/profiles/rest-<time>.cpuprofile [top=25]
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

const file = process.argv[2];
if (!file) {
  console.error('usage: tsx bench/profile-summary.ts <file.cpuprofile> [top]');
  process.exit(2);
}
const top = Number(process.argv[3] ?? 25);
const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as Profile;

const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const parent = new Map<number, number>();
for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);

const selfUs = new Map<number, number>();
profile.samples.forEach((id, i) => selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
const totalUs = [...selfUs.values()].reduce((a, b) => a + b, 0);

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

// The project's Dockerfile as data: stages and their instructions, for the image-steps run (which
// executes them without Docker) and the deploy-files test (which checks what they promise). Only
// the forms the Dockerfile uses are read; anything else is an error, not a silent skip.
import fs from 'node:fs';

export interface Instruction {
  keyword: string;
  /** `--name=value` options before the arguments (`--from`, `--chown`, `--interval`, …). */
  flags: Record<string, string>;
  /** The arguments after the flags, as written (continuations joined). */
  args: string;
  /** The exec form's list, when the arguments are a JSON array. */
  exec: string[] | null;
  /** `# image-steps: skip` on the comment lines right above it. */
  skip: boolean;
  line: number;
}

export interface Stage {
  name: string;
  from: string;
  instructions: Instruction[];
}

const KEYWORDS = new Set(['FROM', 'WORKDIR', 'COPY', 'RUN', 'ENV', 'ARG', 'USER', 'EXPOSE', 'STOPSIGNAL', 'HEALTHCHECK', 'CMD', 'VOLUME', 'LABEL']);

function execForm(text: string): string[] | null {
  if (!text.startsWith('[')) return null;
  const parsed: unknown = JSON.parse(text);
  if (!Array.isArray(parsed) || !parsed.every((item) => typeof item === 'string')) throw new Error(`not a list of strings: ${text}`);
  return parsed as string[];
}

function splitFlags(text: string): { flags: Record<string, string>; rest: string } {
  const flags: Record<string, string> = {};
  let rest = text;
  for (let match = /^--([a-z-]+)=(\S+)\s+/.exec(rest); match; match = /^--([a-z-]+)=(\S+)\s+/.exec(rest)) {
    flags[match[1]!] = match[2]!;
    rest = rest.slice(match[0].length);
  }
  return { flags, rest };
}

export function parseDockerfile(text: string): Stage[] {
  const stages: Stage[] = [];
  const lines = text.split('\n');
  let skipNext = false;
  for (let index = 0; index < lines.length; index++) {
    const first = index + 1;
    let line = lines[index]!.trim();
    if (line === '') {
      skipNext = false;
      continue;
    }
    if (line.startsWith('#')) {
      if (/^#\s*image-steps:\s*skip\b/.test(line)) skipNext = true;
      continue;
    }
    while (line.endsWith('\\') && index + 1 < lines.length) line = `${line.slice(0, -1).trimEnd()} ${lines[++index]!.trim()}`;
    const [, keyword = '', rest = ''] = /^(\S+)\s*(.*)$/.exec(line) ?? [];
    const upper = keyword.toUpperCase();
    if (!KEYWORDS.has(upper)) throw new Error(`Dockerfile line ${first}: ${keyword} is not an instruction image-steps knows`);
    const { flags, rest: args } = upper === 'HEALTHCHECK' || upper === 'COPY' || upper === 'RUN' || upper === 'FROM' ? splitFlags(rest) : { flags: {}, rest };
    const instruction: Instruction = { keyword: upper, flags, args, exec: null, skip: skipNext, line: first };
    skipNext = false;
    if (upper === 'FROM') {
      const [image = '', as, name] = args.split(/\s+/);
      stages.push({ name: as?.toUpperCase() === 'AS' && name ? name : String(stages.length), from: image, instructions: [] });
      continue;
    }
    const stage = stages.at(-1);
    if (!stage) throw new Error(`Dockerfile line ${first}: ${upper} before FROM`);
    if (upper === 'CMD' || upper === 'RUN') instruction.exec = execForm(args);
    if (upper === 'HEALTHCHECK') instruction.exec = args.startsWith('CMD [') ? ['CMD', ...(execForm(args.slice(4).trim()) ?? [])] : null;
    stage.instructions.push(instruction);
  }
  return stages;
}

export const readDockerfile = (file: string): Stage[] => parseDockerfile(fs.readFileSync(file, 'utf8'));

/** `ENV a=1 b="two words"` (or the old `ENV a 1`) as pairs. */
export function envPairs(args: string): Array<[string, string]> {
  if (!/^[A-Za-z_][A-Za-z0-9_]*=/.test(args)) {
    const [, name = '', value = ''] = /^(\S+)\s+(.*)$/.exec(args) ?? [];
    return [[name, value]];
  }
  const pairs: Array<[string, string]> = [];
  const pattern = /([A-Za-z_][A-Za-z0-9_]*)=("(?:[^"\\]|\\.)*"|\S*)/g;
  for (const match of args.matchAll(pattern)) {
    const raw = match[2]!;
    pairs.push([match[1]!, raw.startsWith('"') ? (JSON.parse(raw) as string) : raw]);
  }
  return pairs;
}

/** Go-style durations of HEALTHCHECK options (`15s`, `1m`, `500ms`) in milliseconds. */
export function durationMs(text: string | undefined, fallback: number): number {
  if (!text) return fallback;
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h)$/.exec(text);
  if (!match) throw new Error(`not a duration: ${text}`);
  return Number(match[1]) * { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 }[match[2] as 'ms' | 's' | 'm' | 'h'];
}

/** The last instruction of a kind in a stage (USER, CMD, HEALTHCHECK: the last one wins). */
export const last = (stage: Stage, keyword: string): Instruction | undefined => stage.instructions.filter((instruction) => instruction.keyword === keyword).at(-1);

/** The stage's environment after its ENV lines. */
export const stageEnv = (stage: Stage): Record<string, string> =>
  Object.fromEntries(stage.instructions.filter((instruction) => instruction.keyword === 'ENV').flatMap((instruction) => envPairs(instruction.args)));

// The Dockerfile's steps without Docker (CI here has a docker client but no daemon):
//   npx tsx scripts/deploy/image-steps.ts
// Reads ./Dockerfile and runs each stage in a temporary folder that stands for the stage's root
// file system: WORKDIR, COPY from the build context (honouring .dockerignore) and COPY --from an
// earlier stage, ENV, and RUN in the stage's WORKDIR with its ENV. Then it starts the runtime
// stage's CMD in its WORKDIR with the DATA_DIR volume in that folder, embedded PGlite (or
// IMAGE_STEPS_DATABASE_URL), loopback and free ports: with every role (the HEALTHCHECK command
// must pass, the SMTP probe too, and the dashboard must render), then as compose's smtp-only and
// worker-only containers; each is stopped with the STOPSIGNAL and must exit 0.
//
// What it cannot do, and checks instead: the base image is this machine (its node must have the
// image's major version); USER must name a non-root user the image has (it does not switch to
// it); RUN steps that need the image's own root file system are marked `# image-steps: skip` and
// printed, and any other RUN naming an absolute path is refused. npm ci needs the registry (or a
// warm npm cache). IMAGE_STEPS_KEEP=1 keeps the folder; IMAGE_STEPS_REUSE=<that folder> only starts
// the runtime stage it holds again.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { durationMs, last, readDockerfile, stageEnv, type Instruction, type Stage } from './dockerfile';

const context = path.resolve(import.meta.dirname, '..', '..');
const started = performance.now();
const elapsed = () => `${((performance.now() - started) / 1000).toFixed(0)}s`;
const say = (message: string) => console.log(`[image-steps +${elapsed()}] ${message}`);

class StepError extends Error {}

// --- .dockerignore --------------------------------------------------------------------------------

function globToRegExp(pattern: string): RegExp {
  let source = '';
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i]!;
    if (char === '*' && pattern[i + 1] === '*') {
      source += '.*';
      i++;
      if (pattern[i + 1] === '/') i++;
    } else if (char === '*') source += '[^/]*';
    else if (char === '?') source += '[^/]';
    else source += char.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`);
}

/** Docker's rule: the last matching line wins, `!` re-includes, a match on a folder covers what is inside. */
function dockerIgnore(): (relative: string) => boolean {
  const file = path.join(context, '.dockerignore');
  const rules = fs.existsSync(file)
    ? fs
        .readFileSync(file, 'utf8')
        .split('\n')
        .map((line) => line.trim())
        .filter((line) => line && !line.startsWith('#'))
        .map((line) => ({ include: line.startsWith('!'), pattern: globToRegExp(path.posix.normalize(line.replace(/^!/, '').replace(/^\//, ''))) }))
    : [];
  return (relative) => {
    const parts = relative.split('/');
    let ignored = false;
    for (let depth = 1; depth <= parts.length; depth++) {
      const prefix = parts.slice(0, depth).join('/');
      for (const rule of rules) if (rule.pattern.test(prefix)) ignored = !rule.include;
      if (ignored) return true;
    }
    return ignored;
  };
}

// --- stages ---------------------------------------------------------------------------------------

interface StageState {
  root: string;
  workdir: string;
  env: Record<string, string>;
}

const inRoot = (state: StageState, containerPath: string) => path.join(state.root, containerPath);
const containerPathOf = (state: StageState, target: string) => (path.posix.isAbsolute(target) ? target : path.posix.join(state.workdir, target));

/** `cp -a` into place: a folder's contents into the destination folder, a file to its name or into a folder. */
function copyInto(sources: string[], destination: string, destinationIsFolder: boolean, options: { link: boolean; filter?: (file: string) => boolean }) {
  for (const source of sources) {
    if (!fs.existsSync(source)) throw new StepError(`COPY: ${source} does not exist`);
    const isFolder = fs.statSync(source).isDirectory();
    const target = isFolder || !destinationIsFolder ? destination : path.join(destination, path.basename(source));
    fs.mkdirSync(isFolder ? target : path.dirname(target), { recursive: true });
    if (options.link && !options.filter) {
      // Hard links between stages (same disk): node_modules in seconds, not a minute.
      execFileSync('cp', ['-a', '--link', isFolder ? `${source}/.` : source, target]);
    } else {
      fs.cpSync(source, target, { recursive: true, force: true, dereference: false, verbatimSymlinks: true, filter: options.filter });
    }
  }
}

function runCopy(state: StageState, instruction: Instruction, stages: Map<string, StageState>, ignored: (relative: string) => boolean) {
  const parts = instruction.exec ?? instruction.args.split(/\s+/);
  const destination = parts.at(-1)!;
  const sources = parts.slice(0, -1);
  const destinationPath = containerPathOf(state, destination);
  const destinationIsFolder = destination.endsWith('/') || sources.length > 1;
  if (instruction.flags.chown) say(`  (--chown=${instruction.flags.chown} not applied: no user switch here)`);
  const from = instruction.flags.from;
  if (from) {
    const source = stages.get(from);
    if (!source) throw new StepError(`COPY --from=${from}: no earlier stage of that name`);
    copyInto(sources.map((item) => inRoot(source, item)), inRoot(state, destinationPath), destinationIsFolder, { link: true });
    return;
  }
  for (const item of sources) {
    const relative = path.posix.normalize(item).replace(/^\.\/?/, '');
    if (relative && ignored(relative)) throw new StepError(`COPY ${item}: .dockerignore excludes it`);
  }
  const filter = (file: string) => {
    const relative = path.relative(context, file).split(path.sep).join('/');
    return relative === '' || !ignored(relative);
  };
  copyInto(sources.map((item) => path.join(context, item)), inRoot(state, destinationPath), destinationIsFolder, { link: false, filter });
}

/** The environment of RUN and of the started CMD: the stage's ENV over a minimal base, never this shell's. */
function processEnv(state: StageState, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp', LANG: 'C.UTF-8', ...state.env, ...extra } as unknown as NodeJS.ProcessEnv;
}

function runRun(state: StageState, instruction: Instruction) {
  const command = instruction.exec ? instruction.exec.join(' ') : instruction.args;
  if (instruction.skip) {
    say(`  skipped (marked image-steps: skip): RUN ${command}`);
    return;
  }
  if (/(^|[\s=;&|])\/(?!dev\/null)/.test(command)) throw new StepError(`RUN ${command}: names an absolute path; keep RUN steps relative to WORKDIR or mark them "# image-steps: skip"`);
  const result = instruction.exec
    ? spawnSync(instruction.exec[0]!, instruction.exec.slice(1), { cwd: inRoot(state, state.workdir), env: processEnv(state), stdio: 'inherit' })
    : spawnSync('/bin/sh', ['-c', command], { cwd: inRoot(state, state.workdir), env: processEnv(state), stdio: 'inherit' });
  if (result.status !== 0) throw new StepError(`RUN ${command}: exit ${result.status ?? result.signal}`);
}

function buildStage(stage: Stage, root: string, stages: Map<string, StageState>, ignored: (relative: string) => boolean): StageState {
  const state: StageState = { root, workdir: '/', env: {} };
  fs.mkdirSync(root, { recursive: true });
  say(`stage ${stage.name} (FROM ${stage.from})`);
  for (const instruction of stage.instructions) {
    const stepStarted = performance.now();
    say(`  ${instruction.keyword} ${Object.entries(instruction.flags).map(([k, v]) => `--${k}=${v} `).join('')}${instruction.args}`);
    switch (instruction.keyword) {
      case 'WORKDIR':
        state.workdir = containerPathOf(state, instruction.args);
        fs.mkdirSync(inRoot(state, state.workdir), { recursive: true });
        break;
      case 'ENV':
        Object.assign(state.env, stageEnv({ ...stage, instructions: [instruction] }));
        break;
      case 'COPY':
        runCopy(state, instruction, stages, ignored);
        break;
      case 'RUN':
        runRun(state, instruction);
        break;
      default:
        // USER, EXPOSE, VOLUME, STOPSIGNAL, HEALTHCHECK, CMD, LABEL, ARG: metadata, checked below.
        break;
    }
    const seconds = (performance.now() - stepStarted) / 1000;
    if (seconds > 2) say(`  … ${seconds.toFixed(0)}s`);
  }
  return state;
}

// --- checks of what cannot be run -----------------------------------------------------------------

function checkBaseImage(stages: Stage[]) {
  for (const stage of stages) {
    const match = /^node:(\d+)/.exec(stage.from);
    if (!match) throw new StepError(`stage ${stage.name}: FROM ${stage.from} is not a node image; this machine can only stand in for one`);
    const major = process.versions.node.split('.')[0];
    if (match[1] !== major) throw new StepError(`stage ${stage.name}: FROM ${stage.from} but this machine runs node ${process.versions.node}: the steps would not prove the image`);
  }
}

function checkUser(stages: Stage[], runtime: Stage) {
  const user = last(runtime, 'USER')?.args.split(':')[0];
  if (!user || user === 'root' || user === '0') throw new StepError(`the runtime stage runs as ${user ?? 'root (no USER)'}; it must name a non-root user`);
  const createdByImage = user === 'node' && runtime.from.startsWith('node:');
  const createdBySteps = stages.some((stage) => stage.instructions.some((instruction) => instruction.keyword === 'RUN' && new RegExp(`(useradd|adduser)\\b.*\\b${user}\\b`).test(instruction.args)));
  if (!createdByImage && !createdBySteps) throw new StepError(`USER ${user}: neither the node base image's user nor created by a RUN step`);
  say(`USER ${user}: non-root, ${createdByImage ? "the node image's own user (uid 1000)" : 'created by a RUN step'} (not switched to here)`);
}

function checkRuntimeContents(state: StageState) {
  const app = inRoot(state, state.workdir);
  for (const source of ['server', 'app', 'test', 'e2e', 'tsconfig.json']) {
    if (fs.existsSync(path.join(app, source))) throw new StepError(`the runtime image holds ${source}: it should hold the builds, not the sources`);
  }
  // What npm marks dev-only must be gone. "devOptional" ones (vitest, @playwright/test, drizzle-kit:
  // optional peers of better-auth and next) stay: npm keeps an optional peer that is present.
  const lock = JSON.parse(fs.readFileSync(path.join(context, 'package-lock.json'), 'utf8')) as { packages: Record<string, { dev?: boolean }> };
  const devOnly = Object.entries(lock.packages).filter(([name, entry]) => entry.dev && name.startsWith('node_modules/'));
  const left = devOnly.filter(([name]) => fs.existsSync(path.join(app, name)));
  if (left.length > 0) throw new StepError(`the runtime image holds dev dependencies: ${left.map(([name]) => name).slice(0, 5).join(', ')}…: not pruned`);
  const size = execFileSync('du', ['-sh', app]).toString().split('\t')[0];
  say(`runtime ${state.workdir}: ${size} (no sources; none of the ${devOnly.length} dev-only packages)`);
}

// --- the runtime stage started --------------------------------------------------------------------

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function runProbe(argv: string[], cwd: string, env: NodeJS.ProcessEnv, timeoutMs: number) {
  const result = spawnSync(argv[0]!, argv.slice(1), { cwd, env, encoding: 'utf8', timeout: timeoutMs });
  return { ok: result.status === 0, output: `${result.stdout ?? ''}${result.stderr ?? ''}`.trim() };
}

type Roles = 'web,smtp,worker' | 'smtp' | 'worker';

/** Starts the runtime stage's CMD with ROLES, waits until it is ready by its health check, and stops it. */
async function startRuntime(state: StageState, runtime: Stage, roles: Roles) {
  const cmd = last(runtime, 'CMD')?.exec;
  if (!cmd) throw new StepError('the runtime stage has no exec-form CMD');
  const healthcheck = last(runtime, 'HEALTHCHECK');
  if (!healthcheck?.exec || healthcheck.exec[0] !== 'CMD') throw new StepError('the runtime stage has no HEALTHCHECK CMD [...]');
  const probe = healthcheck.exec.slice(1);
  const stopSignal = (last(runtime, 'STOPSIGNAL')?.args ?? 'SIGTERM') as NodeJS.Signals;
  const dataDir = state.env.DATA_DIR;
  if (!dataDir || !last(runtime, 'VOLUME')?.args.includes(dataDir)) throw new StepError('DATA_DIR must be set and be a VOLUME');
  // The volume's mount, in the stage's root as in the image.
  fs.mkdirSync(inRoot(state, dataDir), { recursive: true });

  const [port, gateway, gatewayTls, bounces] = [await freePort(), await freePort(), await freePort(), await freePort()];
  const env = processEnv(state, {
    ROLES: roles,
    HOST: '127.0.0.1',
    PORT: String(port),
    APP_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: inRoot(state, dataDir),
    SMTP_GATEWAY_PORT: String(gateway),
    SMTP_GATEWAY_TLS_PORT: String(gatewayTls),
    BOUNCE_SMTP_PORT: String(bounces),
    ...(process.env.IMAGE_STEPS_DATABASE_URL ? { DATABASE_URL: process.env.IMAGE_STEPS_DATABASE_URL } : {}),
  });
  const cwd = inRoot(state, state.workdir);
  say(`CMD ${cmd.join(' ')} with ROLES=${roles} (http 127.0.0.1:${port}, ${env.DATABASE_URL ? 'Postgres' : 'PGlite in the DATA_DIR volume'})`);
  const child = spawn(cmd[0]!, cmd.slice(1), { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  try {
    const timeoutMs = durationMs(healthcheck.flags.timeout, 30_000);
    const deadline = performance.now() + Math.max(durationMs(healthcheck.flags['start-period'], 0), 60_000) + 30_000;
    const ready = () => runProbe(roles === 'worker' ? [...probe, 'worker'] : roles === 'smtp' ? [...probe, 'smtp'] : probe, cwd, env, timeoutMs);
    let result = { ok: false, output: '' };
    while (!result.ok) {
      if (child.exitCode !== null) throw new StepError(`CMD exited (${child.exitCode}) before it was ready:\n${output}`);
      if (performance.now() > deadline) throw new StepError(`not ready in time (${result.output}):\n${output}`);
      await sleep(1_000);
      result = ready();
    }
    say(`  HEALTHCHECK ${probe.join(' ')}${roles === 'worker' || roles === 'smtp' ? ` ${roles}` : ''}: ${result.output}`);
    if (roles === 'web,smtp,worker') {
      const smtp = runProbe([...probe, 'smtp'], cwd, env, timeoutMs);
      if (!smtp.ok) throw new StepError(`the smtp probe failed: ${smtp.output}\n${output}`);
      say(`  HEALTHCHECK ${probe.join(' ')} smtp: ${smtp.output}`);
      const page = await fetch(`http://127.0.0.1:${port}/sign-in`);
      const html = await page.text();
      if (page.status !== 200 || !html.includes('</html>')) throw new StepError(`the dashboard's /sign-in answered ${page.status}:\n${output}`);
      say(`  dashboard GET /sign-in: ${page.status}, ${html.length} bytes (Next from .next, no build at start)`);
    }
    if (/building it/.test(output)) throw new StepError(`the runtime rebuilt at start:\n${output}`);
  } catch (error) {
    child.kill('SIGKILL');
    await exited;
    throw error;
  }
  const stopStarted = performance.now();
  child.kill(stopSignal);
  const graceMs = Number(state.env.SHUTDOWN_GRACE_MS ?? 10_000) + 5_000;
  const code = await Promise.race([exited, sleep(graceMs).then(() => 'timeout' as const)]);
  if (code === 'timeout') {
    child.kill('SIGKILL');
    throw new StepError(`${stopSignal} did not stop it within ${graceMs} ms:\n${output}`);
  }
  if (code !== 0) throw new StepError(`${stopSignal}: exit ${code}, expected 0:\n${output}`);
  say(`  ${stopSignal}: stopped with exit 0 in ${((performance.now() - stopStarted) / 1000).toFixed(1)}s`);
}

// --- main -----------------------------------------------------------------------------------------

async function main() {
  const stages = readDockerfile(path.join(context, 'Dockerfile'));
  const runtime = stages.at(-1)!;
  checkBaseImage(stages);
  checkUser(stages, runtime);
  const reuse = process.env.IMAGE_STEPS_REUSE;
  const root = reuse ?? fs.mkdtempSync(path.join(os.tmpdir(), 'eumail-image-steps-'));
  say(`Dockerfile: ${stages.map((stage) => stage.name).join(' → ')}, in ${root}`);
  const ignored = dockerIgnore();
  const built = new Map<string, StageState>();
  try {
    if (reuse) {
      // Only the start, on the stages a kept run (IMAGE_STEPS_KEEP=1) built.
      const workdir = last(runtime, 'WORKDIR')?.args ?? '/';
      built.set(runtime.name, { root: path.join(root, runtime.name), workdir, env: stageEnv(runtime) });
      say(`reusing the stages built in ${root}`);
    } else {
      for (const stage of stages) built.set(stage.name, buildStage(stage, path.join(root, stage.name), built, ignored));
    }
    const state = built.get(runtime.name)!;
    checkRuntimeContents(state);
    // All roles in one process, then compose's smtp-only and worker-only containers, one at a time
    // (PGlite takes one process; on Postgres the same order).
    for (const roles of ['web,smtp,worker', 'smtp', 'worker'] as const) await startRuntime(state, runtime, roles);
    say('passed');
  } finally {
    if (process.env.IMAGE_STEPS_KEEP === '1' || reuse) say(`kept ${root}`);
    else {
      // Three node_modules trees take minutes to unlink on this disk: let that happen after we exit.
      spawn('rm', ['-rf', root], { detached: true, stdio: 'ignore' }).unref();
      say(`removing ${root} in the background`);
    }
  }
}

main().catch((error: unknown) => {
  console.error(`[image-steps +${elapsed()}] FAILED: ${error instanceof StepError ? error.message : error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  process.exit(1);
});

import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..', '..');
const tsx = path.join(root, 'node_modules', '.bin', 'tsx');

export interface Spawned {
  child: ChildProcess;
  output(): string;
  exited: Promise<number | null>;
}

/**
 * A real separate process in the project's folder, with only PATH and HOME from ours plus `env`,
 * its stdout and stderr kept. `detached` gives it a process group of its own, as a terminal would.
 */
export function spawnCaptured(command: string, args: string[], env: Record<string, string>, options: { detached?: boolean } = {}): Spawned {
  const child = spawn(command, args, {
    cwd: root,
    detached: options.detached ?? false,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', NEXT_TELEMETRY_DISABLED: '1', ...env } as unknown as NodeJS.ProcessEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

/** Runs one of the project's entry points (server, CLI) as a real separate process. */
export function spawnEntry(entry: string, args: string[], env: Record<string, string>): Spawned {
  return spawnCaptured(tsx, [path.join(root, entry), ...args], env);
}

export async function runEntry(entry: string, args: string[], env: Record<string, string>) {
  const spawned = spawnEntry(entry, args, env);
  const code = await spawned.exited;
  return { code, output: spawned.output() };
}

export async function waitForOutput(spawned: Spawned, pattern: RegExp, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!pattern.test(spawned.output())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${pattern}; output:\n${spawned.output()}`);
    if (spawned.child.exitCode !== null) throw new Error(`process exited (${spawned.child.exitCode}); output:\n${spawned.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

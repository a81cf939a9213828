// The deployment files (docs/deploy.md) as data: compose.yaml, the Dockerfile, .env.example, and
// the container health check against real loopback listeners. No Docker here: the Dockerfile's
// steps themselves run in scripts/deploy/image-steps.ts (.ci/run).
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { envPairs, last, parseDockerfile, stageEnv, type Stage } from '../scripts/deploy/dockerfile';

const root = path.resolve(import.meta.dirname, '..');
const read = (file: string) => fs.readFileSync(path.join(root, file), 'utf8');

interface Service {
  image?: string;
  build?: unknown;
  profiles?: string[];
  command?: string[];
  env_file?: string | string[];
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }>;
  deploy?: { replicas?: number | string };
  ports?: string[];
  volumes?: string[];
  healthcheck?: { test?: string[]; disable?: boolean };
  stop_signal?: string;
  stop_grace_period?: string;
  init?: boolean;
}
const compose = YAML.parse(read('compose.yaml'), { merge: true }) as { services: Record<string, Service>; volumes: Record<string, unknown> };
const services = compose.services;
const appServices = Object.entries(services).filter(([, service]) => service.image?.includes('eumail'));

/** `${NAME:-default}` as compose reads it with NAME unset; a plain value as it is. */
const withDefaults = (value: string | number | undefined) => String(value ?? 1).replace(/\$\{[A-Z_]+:-([^}]*)\}/g, '$1');
/** The variables a value takes from .env by interpolation. */
const interpolated = (value: string) => [...value.matchAll(/\$\{([A-Z_]+)/g)].map((match) => match[1]!);

/** .env.example's variables, commented-out ones (the Inngest switch) included. */
const envExample = new Map(
  read('.env.example')
    .split('\n')
    .map((line) => /^#?\s?([A-Z][A-Z0-9_]*)=(.*)$/.exec(line))
    .filter((match) => match !== null)
    .map((match) => [match[1]!, match[2]!]),
);

describe('compose.yaml', () => {
  it('runs Postgres 15, two web, one smtp, two workers, and Inngest under its profile', () => {
    expect(services.postgres!.image).toMatch(/^postgres:15\b/);
    const replicas = (name: string) => Number(withDefaults(services[name]!.deploy?.replicas));
    expect(replicas('web')).toBe(2);
    expect(replicas('smtp')).toBe(1);
    expect(replicas('worker')).toBe(2);
    expect(services.worker!.deploy!.replicas).toBe('${WORKER_REPLICAS:-2}');
    expect(appServices.map(([name]) => name).sort()).toEqual(['smtp', 'web', 'worker']);
    for (const name of ['inngest', 'inngest-postgres', 'inngest-redis']) expect(services[name]!.profiles).toEqual(['inngest']);
    for (const name of ['postgres', 'web', 'smtp', 'worker']) expect(services[name]!.profiles).toBeUndefined();
    expect(services.inngest!.image).toMatch(/^inngest\/inngest\b/);
    expect(services.inngest!.command!.slice(0, 2)).toEqual(['inngest', 'start']);
    expect(services.inngest!.command).toContain('http://web:3000/api/inngest');
  });

  it('gives each app service one role, the same image, and its secrets from .env only', () => {
    expect(Object.fromEntries(appServices.map(([name, service]) => [name, service.environment!.ROLES]))).toEqual({ web: 'web', smtp: 'smtp', worker: 'worker' });
    for (const [name, service] of appServices) {
      expect(service.image, name).toBe('${EUMAIL_IMAGE:-eumail:latest}');
      expect(service.build, name).toBe('.');
      expect(service.env_file, name).toBe('.env');
      // Required by interpolation: a missing one stops `compose up` rather than each process generating its own.
      expect(service.environment!.ENCRYPTION_KEY, name).toMatch(/^\$\{ENCRYPTION_KEY:\?/);
      expect(service.environment!.BETTER_AUTH_SECRET, name).toMatch(/^\$\{BETTER_AUTH_SECRET:\?/);
      expect(service.environment!.DATABASE_URL, name).toMatch(/^postgres:\/\/eumail:\$\{POSTGRES_PASSWORD:\?[^}]*\}@postgres:5432\/eumail$/);
      expect(Object.keys(service.environment!).sort(), name).toEqual(['BETTER_AUTH_SECRET', 'DATABASE_URL', 'ENCRYPTION_KEY', 'ROLES']);
    }
  });

  it('hard-codes no secret: every password, key, secret or token comes from .env, and .env.example leaves them empty', () => {
    const secretName = /PASSWORD|SECRET|_KEY$|TOKEN|_URI$|_URL$/;
    let checked = 0;
    for (const [name, service] of Object.entries(services)) {
      for (const [variable, value] of Object.entries(service.environment ?? {})) {
        if (!secretName.test(variable) || variable === 'INNGEST_REDIS_URI') continue;
        checked++;
        const credentials = /^[a-z]+:\/\/([^@/]*)@/.exec(value);
        if (credentials) expect(credentials[1], `${name} ${variable}`).toMatch(/^[a-z]+:\$\{[A-Z_]+:[?-][^}]*\}$/);
        else expect(value, `${name} ${variable}`).toMatch(/^\$\{[A-Z_]+:[?-][^}]*\}$/);
      }
    }
    // three per app service, Postgres's password, Inngest's two keys and database URI, its database's password
    expect(checked).toBe(3 * 3 + 1 + 3 + 1);
    const everyInterpolated = new Set(Object.values(services).flatMap((service) => Object.values(service.environment ?? {}).flatMap(interpolated)));
    for (const variable of everyInterpolated) {
      expect(envExample.has(variable), `${variable} in .env.example`).toBe(true);
      if (/PASSWORD|SECRET|KEY/.test(variable)) expect(envExample.get(variable), `${variable} left empty`).toBe('');
    }
    for (const variable of ['METRICS_TOKEN', 'APP_URL', 'MAIL_HOST', 'SMTP_GATEWAY_PORT', 'SMTP_GATEWAY_TLS_PORT']) expect(envExample.has(variable), variable).toBe(true);
    expect(envExample.get('METRICS_TOKEN')).toBe('');
    expect(read('.gitignore').split('\n')).toContain('.env');
  });

  it('lists in .env.example only variables the service or compose reads', () => {
    const configured = new Set([...read('server/config.ts').matchAll(/^ {2}([A-Z][A-Z0-9_]+): /gm)].map((match) => match[1]!));
    const composeOnly = new Set(['POSTGRES_PASSWORD', 'INNGEST_POSTGRES_PASSWORD', 'COMPOSE_PROFILES', 'WORKER_REPLICAS', 'METRICS_TOKEN']);
    expect(configured.has('ENCRYPTION_KEY')).toBe(true);
    for (const variable of envExample.keys()) expect(configured.has(variable) || composeOnly.has(variable), variable).toBe(true);
  });

  it('starts every app process after Postgres is healthy, with a volume, a graceful stop and a health check that fits its role', () => {
    expect(services.postgres!.healthcheck!.test!.join(' ')).toContain('pg_isready');
    expect(services.postgres!.volumes).toEqual(['postgres-data:/var/lib/postgresql/data']);
    const graceMs = Number(envExample.get('SHUTDOWN_GRACE_MS'));
    for (const [name, service] of appServices) {
      expect(service.depends_on, name).toEqual({ postgres: { condition: 'service_healthy' } });
      expect(service.volumes, name).toContain('app-data:/data');
      expect(service.stop_signal, name).toBe('SIGTERM');
      expect(Number.parseInt(service.stop_grace_period!, 10) * 1000, name).toBeGreaterThan(graceMs);
      expect(service.init, name).toBe(true);
    }
    expect(services.web!.healthcheck!.test).toEqual(['CMD', 'node', 'scripts/healthcheck.mjs', 'web']);
    expect(services.smtp!.healthcheck!.test).toEqual(['CMD', 'node', 'scripts/healthcheck.mjs', 'smtp']);
    expect(services.worker!.healthcheck!.test).toEqual(['CMD', 'node', 'scripts/healthcheck.mjs', 'worker']);
    for (const name of ['inngest', 'inngest-postgres', 'inngest-redis']) expect(services[name]!.healthcheck!.test!.length, name).toBeGreaterThan(1);
    for (const service of Object.values(services)) for (const volume of service.volumes ?? []) {
      const source = volume.split(':')[0]!;
      if (!source.startsWith('.')) expect(compose.volumes, source).toHaveProperty(source);
    }
  });

  it('publishes the SMTP ports as the container has them (the dashboard shows the web side of the same settings), web and Inngest on loopback only', () => {
    const gateway = envExample.get('SMTP_GATEWAY_PORT');
    const tls = envExample.get('SMTP_GATEWAY_TLS_PORT');
    expect(services.smtp!.ports).toEqual([`${gateway}:${gateway}`, `${tls}:${tls}`, '25:2525']);
    expect(services.web!.ports).toEqual(['127.0.0.1:3000-3001:3000']);
    expect(services.inngest!.ports).toEqual(['127.0.0.1:8288:8288']);
    for (const name of ['postgres', 'worker', 'inngest-postgres', 'inngest-redis']) expect(services[name]!.ports, name).toBeUndefined();
  });
});

describe('Dockerfile', () => {
  const stages = parseDockerfile(read('Dockerfile'));
  const stage = (name: string) => stages.find((candidate) => candidate.name === name)!;
  const runtime = stage('runtime');
  const runs = (of: Stage) => of.instructions.filter((instruction) => instruction.keyword === 'RUN').map((instruction) => instruction.args);

  it('builds in stages on Node 20 bookworm-slim: npm ci, then both builds and the dev dependencies pruned', () => {
    expect(stages.map((candidate) => `${candidate.name} ${candidate.from}`)).toEqual(['deps node:20-bookworm-slim', 'build node:20-bookworm-slim', 'runtime node:20-bookworm-slim']);
    expect(runs(stage('deps'))).toEqual(['npm ci --no-audit --no-fund']);
    expect(runs(stage('build'))[0]).toMatch(/^npm run build && npm prune --omit=dev\b/);
  });

  it('runs the image with the heap flags npm start runs the service with', () => {
    const start = (JSON.parse(read('package.json')) as { scripts: { start: string } }).scripts.start;
    const heapFlags = (args: string[]) => args.filter((arg) => /^--max-[a-z-]+-size=\d+$/.test(arg));
    expect(heapFlags(start.split(/\s+/))).toEqual(['--max-semi-space-size=64']);
    expect(heapFlags(last(runtime, 'CMD')!.exec!)).toEqual(heapFlags(start.split(/\s+/)));
  });

  it('runs the bundle as a non-root user with no sources and no build at start', () => {
    expect(last(runtime, 'USER')!.args).toBe('node');
    expect(last(runtime, 'CMD')!.exec).toEqual(['node', '--enable-source-maps', '--max-semi-space-size=64', 'dist/server/main.mjs']);
    const copied = runtime.instructions.filter((instruction) => instruction.keyword === 'COPY');
    expect(copied.every((instruction) => instruction.flags.from === 'build')).toBe(true);
    const sources = copied.map((instruction) => instruction.args.split(/\s+/)[0]);
    for (const source of sources) expect(source).not.toMatch(/^\/app\/(server|app|emails|inngest|test)\b/);
    expect(sources).toEqual(expect.arrayContaining(['/app/dist', '/app/.next', '/app/node_modules', '/app/db/migrations', '/app/scripts/healthcheck.mjs']));
  });

  it('declares the ports, the data volume, the stop signal and a health check', () => {
    const env = stageEnv(runtime);
    expect(env).toMatchObject({ NODE_ENV: 'production', DATA_DIR: '/data', PORT: '3000' });
    expect(last(runtime, 'VOLUME')!.args).toBe(env.DATA_DIR);
    expect(last(runtime, 'EXPOSE')!.args.split(/\s+/)).toEqual(['3000', '2587', '2465', '2525']);
    expect(last(runtime, 'STOPSIGNAL')!.args).toBe('SIGTERM');
    const healthcheck = last(runtime, 'HEALTHCHECK')!;
    expect(healthcheck.exec).toEqual(['CMD', 'node', 'scripts/healthcheck.mjs']);
    expect(healthcheck.flags).toMatchObject({ interval: '15s', timeout: '5s' });
    expect(envPairs('A=1 B="two words"')).toEqual([['A', '1'], ['B', 'two words']]);
  });

  it('sends no secrets, dependencies or builds to the daemon (.dockerignore)', () => {
    const ignored = read('.dockerignore').split('\n');
    for (const entry of ['.git', 'node_modules', '.next', 'dist', '.env', '.data']) expect(ignored, entry).toContain(entry);
  });
});

describe('scripts/healthcheck.mjs', () => {
  const listeners: Array<http.Server | net.Server> = [];
  const sockets = new Set<net.Socket>();
  afterEach(async () => {
    for (const socket of sockets) socket.destroy();
    sockets.clear();
    await Promise.all(listeners.splice(0).map((listener) => new Promise((resolve) => listener.close(resolve))));
  });

  const listen = async <T extends http.Server | net.Server>(server: T): Promise<number> => {
    listeners.push(server);
    server.on('connection', (socket: net.Socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return (server.address() as net.AddressInfo).port;
  };

  const check = (env: Record<string, string>, args: string[] = []) =>
    new Promise<{ code: number; output: string }>((resolve) => {
      const childEnv = { PATH: process.env.PATH ?? '', ...env } as unknown as NodeJS.ProcessEnv;
      execFile(process.execPath, [path.join(root, 'scripts/healthcheck.mjs'), ...args], { env: childEnv, timeout: 15_000, encoding: 'utf8' }, (error, stdout, stderr) =>
        resolve({ code: error ? Number(error.code ?? 1) : 0, output: `${stdout}${stderr}` }),
      );
    });

  it('passes on /api/health answering 200 and fails on 503 or nothing listening (web, the default roles)', async () => {
    let status = 200;
    const port = await listen(http.createServer((request, response) => response.writeHead(request.url === '/api/health' ? status : 404).end()));
    expect(await check({ PORT: String(port), HOST: '0.0.0.0' })).toMatchObject({ code: 0 });
    status = 503;
    expect(await check({ PORT: String(port) })).toMatchObject({ code: 1, output: expect.stringContaining('answered 503') });
    const closed = await listen(net.createServer());
    await new Promise((resolve) => listeners.pop()!.close(resolve));
    expect((await check({ PORT: String(closed), ROLES: 'web' })).code).toBe(1);
  });

  it("probes an smtp process's health and its greeting, and a worker-only one's health on PORT", async () => {
    let greeting = '220 mail.example.eu ESMTP\r\n';
    const port = await listen(net.createServer((socket) => socket.end(greeting)));
    const health = await listen(http.createServer((request, response) => response.writeHead(request.url === '/api/health' ? 200 : 404).end()));
    expect(await check({ ROLES: 'smtp,worker', PORT: String(health), SMTP_GATEWAY_PORT: String(port) })).toMatchObject({ code: 0, output: expect.stringContaining('greeted: 220') });
    expect((await check({ ROLES: 'web', PORT: String(health), SMTP_GATEWAY_PORT: '0', BOUNCE_SMTP_PORT: String(port) }, ['smtp'])).code).toBe(0);
    greeting = '421 busy\r\n';
    expect((await check({ ROLES: 'smtp', PORT: String(health), SMTP_GATEWAY_PORT: String(port) })).code).toBe(1);
    expect(await check({ ROLES: 'worker', PORT: String(health) })).toMatchObject({ code: 0, output: expect.stringContaining('answered 200') });
    const closed = await listen(net.createServer());
    await new Promise((resolve) => listeners.pop()!.close(resolve));
    expect((await check({ ROLES: 'worker', PORT: String(closed) })).code).toBe(1);
    expect((await check({}, ['bogus'])).code).toBe(2);
  });
});

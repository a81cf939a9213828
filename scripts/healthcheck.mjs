// The container's health check (Dockerfile HEALTHCHECK, compose.yaml): exit 0 when this process
// answers on what its roles listen on, 1 otherwise. Plain node, no dependencies: the runtime image
// has no curl. Every process answers GET /api/health on PORT (one without the web role serves
// only its health and /metrics there); an smtp process must also greet on its SMTP port.
//   node scripts/healthcheck.mjs         probe by ROLES: smtp without web → both, else /api/health
//   node scripts/healthcheck.mjs web     force one probe (compose sets it per service)
//   node scripts/healthcheck.mjs smtp
//   node scripts/healthcheck.mjs worker
import net from 'node:net';

const TIMEOUT_MS = 4_000;
const env = process.env;
const roles = (env.ROLES ?? 'web,smtp,worker').split(',').map((role) => role.trim());
const probe = process.argv[2] ?? (roles.includes('smtp') && !roles.includes('web') ? 'smtp' : 'web');

/** Where to reach this process's own listeners: a wildcard bind answers on loopback. */
const host = !env.HOST || ['0.0.0.0', '::', '[::]'].includes(env.HOST) ? '127.0.0.1' : env.HOST;
const hostInUrl = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;

function portOf(name, fallback) {
  const value = env[name] === undefined || env[name] === '' ? fallback : Number(env[name]);
  return Number.isInteger(value) ? value : fallback;
}

async function probeWeb() {
  const url = `http://${hostInUrl}:${portOf('PORT', 3000)}/api/health`;
  const response = await fetch(url, { signal: AbortSignal.timeout(TIMEOUT_MS) });
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  return `${url} answered ${response.status}`;
}

function probeSmtp() {
  const gateway = portOf('SMTP_GATEWAY_PORT', 2587);
  const port = gateway !== 0 ? gateway : portOf('BOUNCE_SMTP_PORT', 2525);
  if (port === 0) return Promise.reject(new Error('no plain SMTP port to probe (SMTP_GATEWAY_PORT and BOUNCE_SMTP_PORT are 0)'));
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host, port });
    let greeting = '';
    const fail = (error) => {
      socket.destroy();
      reject(error);
    };
    socket.setTimeout(TIMEOUT_MS, () => fail(new Error(`no SMTP greeting on ${host}:${port} within ${TIMEOUT_MS} ms`)));
    socket.on('error', fail);
    socket.on('data', (chunk) => {
      greeting += chunk.toString('latin1');
      if (!greeting.includes('\n')) return;
      socket.end('QUIT\r\n');
      if (greeting.startsWith('220')) resolve(`${host}:${port} greeted: ${greeting.trim()}`);
      else fail(new Error(`${host}:${port} greeted with ${JSON.stringify(greeting.trim())}`));
    });
  });
}

const probes = {
  web: probeWeb,
  worker: probeWeb,
  smtp: async () => `${await probeWeb()}; ${await probeSmtp()}`,
};

if (!probes[probe]) {
  console.error(`unknown probe "${probe}" (use web, smtp or worker)`);
  process.exit(2);
}
try {
  console.log(await probes[probe]());
  process.exit(0);
} catch (error) {
  console.error(`unhealthy: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}

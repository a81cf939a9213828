import { loadConfig, ConfigError } from '../config';
import { lockDataDir, lockHolder, readAdminEndpoint } from '../data-dir';
import pino from 'pino';
import { AppError } from '../errors';
import { createLog } from '../log';
import { createRuntime, stopRuntime } from '../runtime';
import { ADMIN_USAGE, parseAdminArgs, runAdminCommand } from './commands';

/**
 * The operator CLI. On Postgres it opens the database itself. On PGlite it must never open the
 * files a running server holds, so it goes through that server's loopback admin endpoint.
 */
async function main(): Promise<number> {
  const argv = process.argv.slice(2);
  if (argv.length === 0 || argv[0] === '--help') {
    process.stdout.write(`${ADMIN_USAGE}\n`);
    return argv.length === 0 ? 1 : 0;
  }
  const config = loadConfig();
  const { command, args } = parseAdminArgs(argv);

  if (!config.databaseUrl && lockHolder(config.dataDir)) {
    const endpoint = readAdminEndpoint(config.dataDir);
    if (!endpoint) throw new Error(`DATA_DIR ${config.dataDir} is held by a process that has no admin endpoint (is it a web process?)`);
    const response = await fetch(endpoint.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-admin-token': endpoint.token },
      body: JSON.stringify({ command, args }),
    });
    const body = await response.text();
    (response.ok ? process.stdout : process.stderr).write(`${body}\n`);
    return response.ok ? 0 : 2;
  }

  const release = config.databaseUrl ? () => {} : lockDataDir(config.dataDir);
  // Stdout is the command's answer, JSON only: anything worth logging goes to stderr.
  const runtime = await createRuntime({ ...config, roles: [] }, { runner: false, log: createLog('warn', pino.destination({ dest: 2, sync: true })) });
  try {
    process.stdout.write(`${JSON.stringify(await runAdminCommand(runtime.deps, command, args))}\n`);
    return 0;
  } finally {
    await stopRuntime(runtime);
    release();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof AppError || error instanceof ConfigError) {
      process.stderr.write(`${JSON.stringify({ error: error.message, code: error instanceof AppError ? error.appCode : 'CONFIG_ERROR' })}\n`);
      process.exit(2);
    }
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);

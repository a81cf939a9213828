import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const LOCK_FILE = 'server.lock';
const ADMIN_FILE = 'admin.json';

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

export class DataDirLockedError extends Error {}

/** The pid holding the embedded database, or null. PGlite opened by two processes corrupts it. */
export function lockHolder(dataDir: string): number | null {
  try {
    const pid = Number(fs.readFileSync(path.join(dataDir, LOCK_FILE), 'utf8'));
    return Number.isInteger(pid) && pid > 0 && pid !== process.pid && alive(pid) ? pid : null;
  } catch {
    return null;
  }
}

export function lockDataDir(dataDir: string): () => void {
  fs.mkdirSync(dataDir, { recursive: true });
  const holder = lockHolder(dataDir);
  if (holder) throw new DataDirLockedError(`DATA_DIR ${dataDir} is in use by process ${holder}; stop it or use another DATA_DIR`);
  const file = path.join(dataDir, LOCK_FILE);
  fs.writeFileSync(file, String(process.pid));
  return () => {
    try {
      if (fs.readFileSync(file, 'utf8') === String(process.pid)) fs.rmSync(file);
    } catch {
      // already gone
    }
  };
}

/** A secret kept in DATA_DIR, made on first use (auth secret, admin token, embedded keys). */
export function dataDirSecret(dataDir: string, name: string): string {
  fs.mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, name);
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch {
    const secret = randomBytes(32).toString('base64url');
    fs.writeFileSync(file, secret, { mode: 0o600, flag: 'wx' });
    return fs.readFileSync(file, 'utf8').trim();
  }
}

interface AdminEndpoint {
  url: string;
  token: string;
  pid: number;
}

export function writeAdminEndpoint(dataDir: string, endpoint: AdminEndpoint): void {
  fs.writeFileSync(path.join(dataDir, ADMIN_FILE), JSON.stringify(endpoint), { mode: 0o600 });
}

export function readAdminEndpoint(dataDir: string): AdminEndpoint | null {
  try {
    return JSON.parse(fs.readFileSync(path.join(dataDir, ADMIN_FILE), 'utf8')) as AdminEndpoint;
  } catch {
    return null;
  }
}

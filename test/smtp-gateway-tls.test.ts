import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadGatewayTls } from '@/server/mail/gateway-tls';
import { captureLog } from './support/log-capture';
import { selfSignedCertificate } from './support/loopback-https';

let dataDir: string;
const encryptionKey = crypto.randomBytes(32);
beforeEach(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'eumail-gateway-tls-'));
});
afterEach(() => fs.rmSync(dataDir, { recursive: true, force: true }));

describe("the gateway's certificate", () => {
  it('is generated self-signed into DATA_DIR when none is configured, with a warning, and reused on the next start', async () => {
    const captured = captureLog('warn');
    const first = await loadGatewayTls({ cert: undefined, key: undefined, dataDir, hostName: 'mail.example.eu', encryptionKey, log: captured.log });
    expect(first.source).toBe('generated');
    const certificate = new crypto.X509Certificate(first.cert);
    expect(certificate.subject).toContain('CN=mail.example.eu');
    expect(certificate.checkPrivateKey(crypto.createPrivateKey(first.key))).toBe(true);
    // The private key is kept sealed with ENCRYPTION_KEY, in a file only the service reads.
    const sealedFile = path.join(dataDir, 'smtp-tls', 'key.sealed');
    expect(fs.statSync(sealedFile).mode & 0o077).toBe(0);
    expect(fs.readFileSync(sealedFile, 'utf8')).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(fs.readFileSync(sealedFile, 'utf8')).not.toContain('PRIVATE KEY');
    expect(fs.existsSync(path.join(dataDir, 'smtp-tls', 'key.pem'))).toBe(false);
    expect(captured.lines.some((line) => line.level === 40 && /self-signed certificate/.test(line.msg))).toBe(true);

    const second = await loadGatewayTls({ cert: undefined, key: undefined, dataDir, hostName: 'mail.example.eu', encryptionKey, log: captureLog('warn').log });
    expect(second.cert).toBe(first.cert);
    expect(second.key).toBe(first.key);
  });

  it('seals a key kept in plaintext by an earlier version, once, and keeps its certificate', async () => {
    const pems = await selfSignedCertificate(['mail.example.eu']);
    const dir = path.join(dataDir, 'smtp-tls');
    fs.mkdirSync(dir, { mode: 0o700 });
    fs.writeFileSync(path.join(dir, 'cert.pem'), pems.cert);
    fs.writeFileSync(path.join(dir, 'key.pem'), pems.key, { mode: 0o600 });

    const captured = captureLog('info');
    const loaded = await loadGatewayTls({ cert: undefined, key: undefined, dataDir, hostName: 'mail.example.eu', encryptionKey, log: captured.log });
    expect(loaded).toEqual({ cert: pems.cert, key: pems.key, source: 'generated' });
    expect(fs.existsSync(path.join(dir, 'key.pem'))).toBe(false);
    expect(fs.readdirSync(dir).sort()).toEqual(['cert.pem', 'key.sealed']);
    expect(fs.readFileSync(path.join(dir, 'key.sealed'), 'utf8')).not.toContain('PRIVATE KEY');
    expect(captured.lines.some((line) => /now sealed with ENCRYPTION_KEY/.test(line.msg))).toBe(true);

    const again = await loadGatewayTls({ cert: undefined, key: undefined, dataDir, hostName: 'mail.example.eu', encryptionKey, log: captureLog('warn').log });
    expect(again.key).toBe(pems.key);
  });

  it('refuses to start with a sealed key that another ENCRYPTION_KEY sealed, rather than replace the certificate', async () => {
    const first = await loadGatewayTls({ cert: undefined, key: undefined, dataDir, hostName: 'mail.example.eu', encryptionKey, log: captureLog('warn').log });
    await expect(
      loadGatewayTls({ cert: undefined, key: undefined, dataDir, hostName: 'mail.example.eu', encryptionKey: crypto.randomBytes(32), log: captureLog('warn').log }),
    ).rejects.toThrow(/does not open with ENCRYPTION_KEY/);
    expect(fs.readFileSync(path.join(dataDir, 'smtp-tls', 'cert.pem'), 'utf8')).toBe(first.cert);
  });

  it('takes SMTP_TLS_CERT and SMTP_TLS_KEY as PEM or as file paths, and both or neither', async () => {
    const pems = await selfSignedCertificate(['mail.example.eu']);
    const log = captureLog('warn').log;
    const inline = await loadGatewayTls({ cert: pems.cert, key: pems.key, dataDir, hostName: 'x', encryptionKey, log });
    expect(inline).toEqual({ cert: pems.cert, key: pems.key, source: 'configured' });

    fs.writeFileSync(path.join(dataDir, 'c.pem'), pems.cert);
    fs.writeFileSync(path.join(dataDir, 'k.pem'), pems.key);
    const files = await loadGatewayTls({ cert: path.join(dataDir, 'c.pem'), key: path.join(dataDir, 'k.pem'), dataDir, hostName: 'x', encryptionKey, log });
    expect(files.cert).toBe(pems.cert);

    await expect(loadGatewayTls({ cert: pems.cert, key: undefined, dataDir, hostName: 'x', encryptionKey, log })).rejects.toThrow(/go together/);
    await expect(loadGatewayTls({ cert: '/nonexistent/cert.pem', key: pems.key, dataDir, hostName: 'x', encryptionKey, log })).rejects.toThrow(/SMTP_TLS_CERT: neither a PEM nor a readable file/);
  });
});

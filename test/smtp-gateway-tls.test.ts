import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadGatewayTls } from '@/server/mail/gateway-tls';
import { captureLog } from './support/log-capture';
import { selfSignedCertificate } from './support/loopback-https';

let dataDir: string;
beforeEach(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'eumail-gateway-tls-'));
});
afterEach(() => fs.rmSync(dataDir, { recursive: true, force: true }));

describe("the gateway's certificate", () => {
  it('is generated self-signed into DATA_DIR when none is configured, with a warning, and reused on the next start', async () => {
    const captured = captureLog('warn');
    const first = await loadGatewayTls({ cert: undefined, key: undefined, dataDir, hostName: 'mail.example.eu', log: captured.log });
    expect(first.source).toBe('generated');
    const certificate = new crypto.X509Certificate(first.cert);
    expect(certificate.subject).toContain('CN=mail.example.eu');
    expect(certificate.checkPrivateKey(crypto.createPrivateKey(first.key))).toBe(true);
    expect(fs.statSync(path.join(dataDir, 'smtp-tls', 'key.pem')).mode & 0o077).toBe(0);
    expect(captured.lines.some((line) => line.level === 40 && /self-signed certificate/.test(line.msg))).toBe(true);

    const second = await loadGatewayTls({ cert: undefined, key: undefined, dataDir, hostName: 'mail.example.eu', log: captureLog('warn').log });
    expect(second.cert).toBe(first.cert);
  });

  it('takes SMTP_TLS_CERT and SMTP_TLS_KEY as PEM or as file paths, and both or neither', async () => {
    const pems = await selfSignedCertificate(['mail.example.eu']);
    const log = captureLog('warn').log;
    const inline = await loadGatewayTls({ cert: pems.cert, key: pems.key, dataDir, hostName: 'x', log });
    expect(inline).toEqual({ cert: pems.cert, key: pems.key, source: 'configured' });

    fs.writeFileSync(path.join(dataDir, 'c.pem'), pems.cert);
    fs.writeFileSync(path.join(dataDir, 'k.pem'), pems.key);
    const files = await loadGatewayTls({ cert: path.join(dataDir, 'c.pem'), key: path.join(dataDir, 'k.pem'), dataDir, hostName: 'x', log });
    expect(files.cert).toBe(pems.cert);

    await expect(loadGatewayTls({ cert: pems.cert, key: undefined, dataDir, hostName: 'x', log })).rejects.toThrow(/go together/);
    await expect(loadGatewayTls({ cert: '/nonexistent/cert.pem', key: pems.key, dataDir, hostName: 'x', log })).rejects.toThrow(/SMTP_TLS_CERT: neither a PEM nor a readable file/);
  });
});

import { describe, expect, it } from 'vitest';
import { loadConfig } from '@/server/config';
import { runEntry } from './support/process';

describe('configuration', () => {
  it('has the documented defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      appUrl: 'http://localhost:3000',
      databaseUrl: undefined,
      smtpMxPort: 25,
      bounceSmtpPort: 2525,
      testModeStepMs: 2_000,
      dnsServers: [],
      roles: ['web', 'smtp', 'worker'],
      dashboard: true,
      inngestEnabled: false,
    });
    expect(config.dataDir).toMatch(/\.data$/);
    // The service's own mail is signed by SYSTEM_MAIL_FROM's domain, with a key generated into DATA_DIR unless one is given.
    expect(config.systemMailFrom).toBe('EU Mail <no-reply@localhost>');
    expect(config.systemMailDkim).toEqual({ selector: 'eumail', privateKey: undefined });
  });

  it.each([
    [{ PORT: 'eighty' }, /^Invalid configuration: PORT must be a port number/],
    [{ PORT: '70000' }, /^Invalid configuration: PORT must be between 0 and 65535/],
    [{ DATABASE_URL: 'mysql://x' }, /^Invalid configuration: DATABASE_URL must be a postgres: or postgresql: URL/],
    [{ APP_URL: 'not a url' }, /^Invalid configuration: APP_URL must be a http: or https: URL/],
    [{ SMTP_RELAY_URL: 'http://relay' }, /^Invalid configuration: SMTP_RELAY_URL/],
    [{ DNS_SERVERS: '127.0.0.1:53,bad host' }, /^Invalid configuration: DNS_SERVERS "bad host" is not an IP address/],
    [{ DNS_SERVERS: 'dns.example.com' }, /^Invalid configuration: DNS_SERVERS "dns.example.com" is not an IP address/],
    [{ WEBHOOK_ALLOW_PRIVATE_CIDRS: '127.0.0.0/8,10.0.0.0/33' }, /^Invalid configuration: WEBHOOK_ALLOW_PRIVATE_CIDRS "10.0.0.0\/33"/],
    [{ ROLES: 'web,mailer' }, /^Invalid configuration: ROLES unknown role "mailer"/],
    [{ TEST_MODE_STEP_MS: '-5' }, /^Invalid configuration: TEST_MODE_STEP_MS/],
    [{ SYSTEM_MAIL_FROM: 'EU Mail' }, /^Invalid configuration: SYSTEM_MAIL_FROM must be an address/],
    [{ SYSTEM_MAIL_FROM: 'EU Mail <no-reply>' }, /^Invalid configuration: SYSTEM_MAIL_FROM must be an address/],
    [{ SYSTEM_MAIL_DKIM_SELECTOR: 'ops.2026' }, /^Invalid configuration: SYSTEM_MAIL_DKIM_SELECTOR must be one DNS label/],
    [{ BETTER_AUTH_SECRET: 'short' }, /^Invalid configuration: BETTER_AUTH_SECRET must be at least 32 characters/],
  ])('refuses %o with one line naming the variable', (env, message) => {
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('reads DNS_SERVERS and turns Inngest on by its standard variables', () => {
    expect(loadConfig({ DNS_SERVERS: '127.0.0.1:5353, [::1]:53' }).dnsServers).toEqual(['127.0.0.1:5353', '[::1]:53']);
    expect(loadConfig({ INNGEST_DEV: '1' }).inngestEnabled).toBe(true);
  });

  it('stops the process with exit 1 and that one line', async () => {
    const { code, output } = await runEntry('server/main.ts', [], { PORT: 'eighty', DATA_DIR: '/tmp/eumail-config-test' });
    expect(code).toBe(1);
    expect(output.trim().split('\n').filter((line) => !line.includes('npm warn'))).toEqual(['Invalid configuration: PORT must be a port number (got "eighty")']);
  });
});

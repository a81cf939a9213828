import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { parseCidr } from './net/ip-policy';
import { LOG_LEVELS, type LogLevel } from './log';
import { DEFAULT_TIMEOUTS, type DeliveryTimeouts } from './mail/smtp-session';
import { stripeConfig, StripeConfigError, type StripeConfig } from './config-stripe';
import { LimitsError, parseLimitOverrides, type LimitOverrides } from './services/delivery-shaping/limits';

const port = (fallback: number) =>
  z.coerce
    .number({ message: 'must be a port number' })
    .int('must be a whole number')
    .min(0, 'must be between 0 and 65535')
    .max(65535, 'must be between 0 and 65535')
    .default(fallback);

const positiveMs = (fallback: number) =>
  z.coerce.number({ message: 'must be a number of milliseconds' }).int().positive().default(fallback);

const hostPortList = z
  .string()
  .optional()
  .transform((value, ctx) => {
    if (!value) return [];
    const servers = value.split(',').map((entry) => entry.trim()).filter(Boolean);
    for (const server of servers) {
      // Resolver.setServers takes addresses only: a DNS server cannot be found by name.
      if (!/^(\[[0-9a-f:]+\]|\d{1,3}(\.\d{1,3}){3})(:\d{1,5})?$/i.test(server)) {
        ctx.addIssue({ code: 'custom', message: `"${server}" is not an IP address with an optional :port` });
      }
    }
    return servers;
  });

const urlOf = (protocols: string[]) =>
  z
    .string()
    .optional()
    .refine(
      (value) => {
        if (!value) return true;
        try {
          return protocols.includes(new URL(value).protocol);
        } catch {
          return false;
        }
      },
      { message: `must be a ${protocols.join(' or ')} URL` },
    );

const cidrList = z
  .string()
  .optional()
  .superRefine((value, ctx) => {
    for (const cidr of (value ?? '').split(',').map((c) => c.trim()).filter(Boolean)) {
      try {
        parseCidr(cidr);
      } catch (error) {
        ctx.addIssue({ code: 'custom', message: `"${cidr}": ${error instanceof Error ? error.message : 'not a CIDR'}` });
      }
    }
  });

/** `name|purpose|location;...`: the operator's own sub-processors (hosting, backups...), for the Art. 30 record. */
const subprocessorList = z
  .string()
  .optional()
  .transform((value, ctx) => {
    const entries = (value ?? '').split(';').map((entry) => entry.trim()).filter(Boolean);
    return entries.map((entry) => {
      const [name = '', purpose = '', location = '', ...rest] = entry.split('|').map((part) => part.trim());
      if (!name || !purpose || !location || rest.length > 0) ctx.addIssue({ code: 'custom', message: `"${entry}" is not name|purpose|location` });
      return { name, purpose, location };
    });
  });

/** The bare address of a From value ("Name <user@domain>" or "user@domain"), or null when it has none. */
export function systemMailAddress(from: string): string | null {
  const address = /<([^<>\s]+)>\s*$/.exec(from)?.[1] ?? from.trim();
  return /^[^@\s<>]+@[^@\s<>.]+(\.[^@\s<>.]+)*$/.test(address) ? address : null;
}

const splitList = (value: string | undefined) => (value ?? '').split(',').map((item) => item.trim()).filter(Boolean);

const roles = ['web', 'smtp', 'worker'] as const;

/** The HTTP listener's bounds when the environment does not set them (docs/security.md, "Abuse: the HTTP edge"). */
export const DEFAULT_EDGE_LIMITS: EdgeLimits = {
  // A browser or SDK sends its headers in one packet; 20 s is for a phone on a bad network.
  headersTimeoutMs: 20_000,
  // The largest body (24 MiB, a send with attachments) at about 2 Mbit/s.
  requestTimeoutMs: 120_000,
  // A client opens a handful at a time (browsers 6 per host); 64 leaves room for a busy SDK pool.
  maxConnectionsPerAddress: 64,
  capLoopback: false,
};

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  LOG_LEVEL: z.enum(LOG_LEVELS, { message: `must be one of ${LOG_LEVELS.join(', ')}` }).default('info'),
  PORT: port(3000),
  HOST: z.string().default('0.0.0.0'),
  APP_URL: urlOf(['http:', 'https:']),
  DATABASE_URL: urlOf(['postgres:', 'postgresql:']),
  DATA_DIR: z.string().default('./.data'),
  DNS_SERVERS: hostPortList,
  SMTP_RELAY_URL: urlOf(['smtp:', 'smtps:']),
  SMTP_MX_PORT: port(25),
  // Checked apart (deliveryLimitsOf): the JSON's own errors name the provider and field.
  DELIVERY_PROVIDER_LIMITS: z.string().optional(),
  OPERATOR_EMAIL: z.string().regex(/^[^@\s]+@[^@\s]+\.[^@\s]+$/, 'must be an email address').optional(),
  BOUNCE_SMTP_PORT: port(2525),
  SMTP_GATEWAY_PORT: port(2587),
  SMTP_GATEWAY_TLS_PORT: port(2465),
  // Message bytes the gateway holds in memory at once, in all and per organization (docs/security.md).
  SMTP_GATEWAY_MEMORY_BYTES: z.coerce.number().int().positive().default(256 * 1024 * 1024),
  SMTP_GATEWAY_ORG_MEMORY_BYTES: z.coerce.number().int().positive().default(64 * 1024 * 1024),
  SMTP_TLS_CERT: z.string().optional(),
  SMTP_TLS_KEY: z.string().optional(),
  BOUNCE_DOMAIN: z.string().optional(),
  SANDBOX_DOMAIN: z.string().optional(),
  // Its domain signs the service's own mail (DKIM d=), so it must carry an address.
  SYSTEM_MAIL_FROM: z
    .string()
    .refine((value) => systemMailAddress(value) !== null, { message: 'must be an address, "Name <user@domain>" or "user@domain"' })
    .optional(),
  SYSTEM_MAIL_DKIM_PRIVATE_KEY: z.string().optional(),
  SYSTEM_MAIL_DKIM_SELECTOR: z.string().regex(/^[a-z0-9-]{1,63}$/i, 'must be one DNS label').default('eumail'),
  SANDBOX_DKIM_PRIVATE_KEY: z.string().optional(),
  SANDBOX_DKIM_SELECTOR: z.string().regex(/^[a-z0-9-]{1,63}$/i, 'must be one DNS label').default('eusandbox'),
  WEBHOOK_ALLOW_PRIVATE_CIDRS: cidrList,
  WEBHOOK_RETRY_BASE_MS: positiveMs(30_000),
  SMTP_MX_ALLOW_PRIVATE_CIDRS: cidrList,
  TRUSTED_PROXY_CIDRS: cidrList,
  TRACKING_MACHINE_CIDRS: cidrList,
  PRIVACY_SUBPROCESSORS: subprocessorList,
  TEST_MODE_STEP_MS: positiveMs(2_000),
  SMTP_TIMEOUT_MS: positiveMs(DEFAULT_TIMEOUTS.sessionMs),
  SHUTDOWN_GRACE_MS: positiveMs(10_000),
  BODY_LIMIT_BYTES: z.coerce.number().int().positive().default(1_048_576),
  // Resend's bound on an import's CSV file (docs/contacts.md, "Imports").
  CONTACT_IMPORT_MAX_BYTES: z.coerce.number().int().positive().default(50 * 1024 * 1024),
  HTTP_HEADERS_TIMEOUT_MS: positiveMs(DEFAULT_EDGE_LIMITS.headersTimeoutMs),
  HTTP_REQUEST_TIMEOUT_MS: positiveMs(DEFAULT_EDGE_LIMITS.requestTimeoutMs),
  MAX_CONNECTIONS_PER_ADDRESS: z.coerce.number({ message: 'must be a number' }).int('must be a whole number').positive('must be at least 1').default(DEFAULT_EDGE_LIMITS.maxConnectionsPerAddress),
  CONNECTION_CAP_LOOPBACK: z.enum(['on', 'off'], { message: 'must be on or off' }).default('off'),
  BETTER_AUTH_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  ROLES: z
    .string()
    .default(roles.join(','))
    .transform((value, ctx) => {
      const list = value.split(',').map((role) => role.trim()).filter(Boolean);
      for (const role of list) {
        if (!(roles as readonly string[]).includes(role)) {
          ctx.addIssue({ code: 'custom', message: `unknown role "${role}" (use ${roles.join(', ')})` });
        }
      }
      return list as (typeof roles)[number][];
    }),
  DASHBOARD: z.enum(['on', 'off'], { message: 'must be on or off' }).default('on'),
  TEST_CLOCK: z.enum(['on', 'off'], { message: 'must be on or off' }).default('off'),
  ENCRYPTION_KEY: z
    .string()
    .refine((value) => Buffer.from(value, 'base64').length === 32, { message: 'must be 32 bytes, base64-encoded' })
    .optional(),
  MAIL_HOST: z.string().optional(),
  DOMAIN_CONNECT_PROVIDER_ID: z.string().optional(),
  DOMAIN_CONNECT_SERVICE_ID: z.string().optional(),
  DOMAIN_CONNECT_PRIVATE_KEY: z.string().optional(),
  DOMAIN_CONNECT_KEY_HOST: z.string().optional(),
  STRIPE_SECRET_KEY: z.string().optional(),
  STRIPE_WEBHOOK_SECRET: z.string().optional(),
  STRIPE_API_BASE: z.string().optional(),
  STRIPE_PRICES: z.string().optional(),
  STRIPE_OVERAGE_PRICE: z.string().optional(),
  STRIPE_OVERAGE_METER: z.string().optional(),
  // Sending continues this long after a failed renewal before the account is restricted (docs/billing.md).
  BILLING_GRACE_DAYS: z.coerce.number({ message: 'must be a number of days' }).int('must be a whole number of days').min(0, 'must be 0 or more').max(60, 'must be at most 60').default(7),
  INNGEST_EVENT_KEY: z.string().optional(),
  INNGEST_SIGNING_KEY: z.string().optional(),
  INNGEST_DEV: z.string().optional(),
  INNGEST_BASE_URL: z.string().optional(),
});

export type Config = {
  nodeEnv: 'development' | 'production' | 'test';
  logLevel: LogLevel;
  port: number;
  host: string;
  appUrl: string;
  databaseUrl: string | undefined;
  dataDir: string;
  dnsServers: string[];
  smtpRelayUrl: string | undefined;
  smtpMxPort: number;
  /** The operator's changes to the per-provider limits (DELIVERY_PROVIDER_LIMITS; docs/delivery.md). */
  deliveryProviderLimits: LimitOverrides;
  /** Where operator alerts are mailed (a provider paused for reputation); unset: log and /metrics only. */
  operatorEmail: string | undefined;
  bounceSmtpPort: number;
  /** The SMTP relay gateway: STARTTLS port and implicit-TLS port (0 = off), and its certificate (PEM or a file path; unset = self-signed in DATA_DIR). */
  smtpGateway: { port: number; tlsPort: number; cert: string | undefined; key: string | undefined; memoryBytes: number; orgMemoryBytes: number };
  /** The shared onboarding domain every organization may send from (docs/domains.md, "Sandbox domain"); never unset. */
  sandboxDomain: string;
  /** The sandbox domain's DKIM key: PEM or a file path; unset = generated into DATA_DIR. */
  sandboxDkim: { selector: string; privateKey: string | undefined };
  systemMailFrom: string;
  /** The DKIM key of SYSTEM_MAIL_FROM's domain: PEM or a file path; unset = generated into DATA_DIR. */
  systemMailDkim: { selector: string; privateKey: string | undefined };
  webhookAllowPrivateCidrs: string[];
  /** The first webhook retry's delay; each next one is ten times longer. */
  webhookRetryBaseMs: number;
  /** Test-only: private ranges an MX may resolve to (the loopback SMTP server of the tests). */
  smtpMxAllowPrivateCidrs: string[];
  /** Reverse proxies whose X-Forwarded-For is believed (the tracking endpoints record the client's address). */
  trustedProxyCidrs: string[];
  /** Networks of image proxies and link scanners: opens and clicks from them are recorded as a machine's (docs/tracking.md). */
  trackingMachineCidrs: string[];
  /** The operator's sub-processors, listed in every organization's record of processing activities (docs/privacy.md). */
  privacySubprocessors: Array<{ name: string; purpose: string; location: string }>;
  testModeStepMs: number;
  /** Bounds on one SMTP session with a receiving server: SMTP_TIMEOUT_MS caps the whole session and every wait in it. */
  smtpTimeouts: DeliveryTimeouts;
  /** On SIGTERM, how long work in flight may take to finish. */
  shutdownGraceMs: number;
  bodyLimitBytes: number;
  /** The largest CSV file `POST /contacts/imports` takes (413 past it). */
  contactImportMaxBytes: number;
  /** The HTTP listener's bounds on slow and greedy clients (docs/security.md, "Abuse: the HTTP edge"). */
  edge: EdgeLimits;
  authSecret: string | undefined;
  /** Bearer token for /metrics; unset: only direct loopback requests may read it. */
  metricsToken: string | undefined;
  roles: Array<'web' | 'smtp' | 'worker'>;
  /** Serve the Next dashboard from the web role (off: the API alone, no build needed). */
  dashboard: boolean;
  /** Test-only: time is real time plus the offset in `test_clock`, moved by clock:set and clock:advance. */
  testClock: boolean;
  /** Key for secrets at rest (DKIM private keys); unset = generated into DATA_DIR. */
  encryptionKey: Buffer | undefined;
  /** Our mail host: the MX of customers' return-path subdomains and the SPF include. */
  mailHost: string;
  domainConnect: { providerId: string; serviceId: string; privateKeyPem: string; keyHost: string } | null;
  inngestEnabled: boolean;
  /** Billing through Stripe; null: none, an upgrade is a request the operator grants (docs/billing.md). */
  stripe: StripeConfig | null;
  /** Days sending continues after a failed renewal before the account is restricted. */
  billingGraceDays: number;
};

export interface EdgeLimits {
  /** From a connection's first byte (or a kept-alive one's next request) to the end of its headers. */
  headersTimeoutMs: number;
  /** From a request's first byte to the end of its body. */
  requestTimeoutMs: number;
  /** Open connections from one client address (an IPv6 client's /64); loopback and trusted proxies are exempt unless capLoopback. */
  maxConnectionsPerAddress: number;
  /** Hold loopback to the cap too (tests); off, so load from 127.0.0.1 (benchmarks, a local proxy) is never throttled. */
  capLoopback: boolean;
}

export class ConfigError extends Error {}

/** Every wait of an SMTP session within the bound on the whole session. */
const timeoutsWithin = (sessionMs: number): DeliveryTimeouts => ({
  connectMs: Math.min(DEFAULT_TIMEOUTS.connectMs, sessionMs),
  greetingMs: Math.min(DEFAULT_TIMEOUTS.greetingMs, sessionMs),
  idleMs: Math.min(DEFAULT_TIMEOUTS.idleMs, sessionMs),
  sessionMs,
});

function domainConnectConfig(e: z.infer<typeof envSchema>): Config['domainConnect'] {
  const values = [e.DOMAIN_CONNECT_PROVIDER_ID, e.DOMAIN_CONNECT_SERVICE_ID, e.DOMAIN_CONNECT_PRIVATE_KEY, e.DOMAIN_CONNECT_KEY_HOST];
  if (values.every((value) => !value)) return null;
  if (values.some((value) => !value)) {
    throw new ConfigError('Invalid configuration: DOMAIN_CONNECT_PROVIDER_ID, DOMAIN_CONNECT_SERVICE_ID, DOMAIN_CONNECT_PRIVATE_KEY and DOMAIN_CONNECT_KEY_HOST go together');
  }
  let privateKeyPem = e.DOMAIN_CONNECT_PRIVATE_KEY!;
  if (!privateKeyPem.includes('-----BEGIN')) {
    try {
      privateKeyPem = fs.readFileSync(privateKeyPem, 'utf8');
    } catch {
      throw new ConfigError(`Invalid configuration: DOMAIN_CONNECT_PRIVATE_KEY is neither a PEM key nor a readable file (got "${privateKeyPem}")`);
    }
  }
  return { providerId: e.DOMAIN_CONNECT_PROVIDER_ID!, serviceId: e.DOMAIN_CONNECT_SERVICE_ID!, privateKeyPem, keyHost: e.DOMAIN_CONNECT_KEY_HOST! };
}

/**
 * The sandbox's name when SANDBOX_DOMAIN is unset: `sandbox.<host of APP_URL>`, so a fresh
 * `npm start` (APP_URL http://localhost:3000) has `sandbox.localhost` and a newcomer sends a test
 * email at once. An IP literal has no name to hang a subdomain on; it gets `sandbox.localhost`
 * too, a reserved name (RFC 6761) that is nobody's real domain: test mode works, and an operator
 * who wants live sandbox mail to pass DKIM sets SANDBOX_DOMAIN to a name they publish records for.
 */
export function defaultSandboxDomain(appHost: string): string {
  const host = appHost.replace(/^\[|\]$/g, '').toLowerCase().replace(/\.$/, '');
  return net.isIP(host) === 0 ? `sandbox.${host}` : 'sandbox.localhost';
}

function deliveryLimitsOf(value: string | undefined): LimitOverrides {
  try {
    return parseLimitOverrides(value);
  } catch (error) {
    if (error instanceof LimitsError) throw new ConfigError(`Invalid configuration: DELIVERY_PROVIDER_LIMITS ${error.message}`);
    throw error;
  }
}

function stripeOf(e: z.infer<typeof envSchema>): StripeConfig | null {
  try {
    return stripeConfig(e);
  } catch (error) {
    if (error instanceof StripeConfigError) throw new ConfigError(`Invalid configuration: ${error.message}`);
    throw error;
  }
}

/** Reads the environment; a wrong value throws one line naming the variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ''));
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const name = String(issue.path[0] ?? 'environment');
    throw new ConfigError(`Invalid configuration: ${name} ${issue.message} (got "${env[name] ?? ''}")`);
  }
  const e = parsed.data;
  const appUrl = (e.APP_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, '');
  const appHost = new URL(appUrl).hostname;
  const bounceDomain = e.BOUNCE_DOMAIN ?? appHost;
  return {
    nodeEnv: e.NODE_ENV,
    logLevel: e.LOG_LEVEL,
    port: e.PORT,
    host: e.HOST,
    appUrl,
    databaseUrl: e.DATABASE_URL,
    dataDir: path.resolve(e.DATA_DIR),
    dnsServers: e.DNS_SERVERS,
    smtpRelayUrl: e.SMTP_RELAY_URL,
    smtpMxPort: e.SMTP_MX_PORT,
    deliveryProviderLimits: deliveryLimitsOf(e.DELIVERY_PROVIDER_LIMITS),
    operatorEmail: e.OPERATOR_EMAIL,
    bounceSmtpPort: e.BOUNCE_SMTP_PORT,
    smtpGateway: {
      port: e.SMTP_GATEWAY_PORT,
      tlsPort: e.SMTP_GATEWAY_TLS_PORT,
      cert: e.SMTP_TLS_CERT,
      key: e.SMTP_TLS_KEY,
      memoryBytes: e.SMTP_GATEWAY_MEMORY_BYTES,
      orgMemoryBytes: e.SMTP_GATEWAY_ORG_MEMORY_BYTES,
    },
    sandboxDomain: e.SANDBOX_DOMAIN?.toLowerCase().replace(/\.$/, '') ?? defaultSandboxDomain(appHost),
    sandboxDkim: { selector: e.SANDBOX_DKIM_SELECTOR, privateKey: e.SANDBOX_DKIM_PRIVATE_KEY },
    systemMailFrom: e.SYSTEM_MAIL_FROM ?? `EU Mail <no-reply@${bounceDomain}>`,
    systemMailDkim: { selector: e.SYSTEM_MAIL_DKIM_SELECTOR, privateKey: e.SYSTEM_MAIL_DKIM_PRIVATE_KEY },
    webhookAllowPrivateCidrs: splitList(e.WEBHOOK_ALLOW_PRIVATE_CIDRS),
    webhookRetryBaseMs: e.WEBHOOK_RETRY_BASE_MS,
    smtpMxAllowPrivateCidrs: splitList(e.SMTP_MX_ALLOW_PRIVATE_CIDRS),
    trustedProxyCidrs: splitList(e.TRUSTED_PROXY_CIDRS),
    trackingMachineCidrs: splitList(e.TRACKING_MACHINE_CIDRS),
    privacySubprocessors: e.PRIVACY_SUBPROCESSORS,
    testModeStepMs: e.TEST_MODE_STEP_MS,
    smtpTimeouts: timeoutsWithin(e.SMTP_TIMEOUT_MS),
    shutdownGraceMs: e.SHUTDOWN_GRACE_MS,
    bodyLimitBytes: e.BODY_LIMIT_BYTES,
    contactImportMaxBytes: e.CONTACT_IMPORT_MAX_BYTES,
    edge: {
      headersTimeoutMs: e.HTTP_HEADERS_TIMEOUT_MS,
      // Node refuses a request bound shorter than the headers' one; the headers are part of the request.
      requestTimeoutMs: Math.max(e.HTTP_REQUEST_TIMEOUT_MS, e.HTTP_HEADERS_TIMEOUT_MS),
      maxConnectionsPerAddress: e.MAX_CONNECTIONS_PER_ADDRESS,
      capLoopback: e.CONNECTION_CAP_LOOPBACK === 'on',
    },
    authSecret: e.BETTER_AUTH_SECRET,
    metricsToken: e.METRICS_TOKEN,
    roles: e.ROLES,
    dashboard: e.DASHBOARD === 'on',
    testClock: e.TEST_CLOCK === 'on',
    encryptionKey: e.ENCRYPTION_KEY ? Buffer.from(e.ENCRYPTION_KEY, 'base64') : undefined,
    mailHost: e.MAIL_HOST ?? bounceDomain,
    domainConnect: domainConnectConfig(e),
    inngestEnabled: Boolean(e.INNGEST_EVENT_KEY || e.INNGEST_SIGNING_KEY || e.INNGEST_DEV || e.INNGEST_BASE_URL),
    stripe: stripeOf(e),
    billingGraceDays: e.BILLING_GRACE_DAYS,
  };
}

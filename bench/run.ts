/**
 * `npm run bench`: the service against bare node:http + postgres-js baselines, on a throwaway
 * Postgres database, everything on 127.0.0.1. docs/benchmarks.md explains the suites and figures.
 *
 *   BENCH_SUITE=api-keys (default)  GET /api/api-keys, bench/suite-api-keys.ts   → results/latest.json
 *   BENCH_SUITE=emails              sending, batch, delivery, list filters over 1M emails,
 *                                   bench/suite-emails.ts                         → results/emails-latest.json
 *   BENCH_SUITE=contacts            1M contacts imported through /contacts/batch, search at 1M,
 *                                   export of 1M suppressions, bench/suite-contacts.ts
 *                                                                                 → results/contacts-latest.json
 *   BENCH_SUITE=startup             npm start to a healthy /api/health, bench/suite-startup.ts
 *   BENCH_SUITE=soak                the built service for 10 min under a steady open-loop mix,
 *                                   delivering meanwhile, bench/suite-soak.ts    → results/soak-latest.json
 *   BENCH_SUITE=webhooks            signed webhook deliveries/s to a loopback receiver vs bare
 *                                   undici POSTs, bench/suite-webhooks.ts   → results/webhooks-latest.json
 *   BENCH_SUITE=broadcasts          a broadcast to 100k contacts: the fan-out's hand-off to delivery vs
 *                                   bare postgres-js INSERTs, then its delivery vs bare nodemailer,
 *                                   bench/suite-broadcasts.ts             → results/broadcasts-latest.json
 *   BENCH_SUITE=automations         100k contacts entering an automation at once: to their first wait,
 *                                   then its send steps, beside a broadcast to the same contacts,
 *                                   bench/suite-automations.ts           → results/automations-latest.json
 *   BENCH_SUITE=all                 every suite, one after the other
 *
 * Whatever happens (success, failure, Ctrl-C, the overall deadline), every child is stopped, every
 * database created is dropped and the process exits by itself.
 */
import { cleanup, errorText, log } from './harness';
import { apiKeysDeadlineMs, runApiKeysSuite } from './suite-api-keys';
import { automationsDeadlineMs, runAutomationsSuite } from './suite-automations';
import { broadcastsDeadlineMs, runBroadcastsSuite } from './suite-broadcasts';
import { contactsDeadlineMs, runContactsSuite } from './suite-contacts';
import { emailsDeadlineMs, runEmailsSuite } from './suite-emails';
import { runSoakSuite, soakDeadlineMs } from './suite-soak';
import { runStartupSuite, startupDeadlineMs } from './suite-startup';
import { runWebhooksSuite, webhooksDeadlineMs } from './suite-webhooks';

const SUITES = {
  'api-keys': { run: runApiKeysSuite, deadlineMs: apiKeysDeadlineMs },
  emails: { run: runEmailsSuite, deadlineMs: emailsDeadlineMs },
  contacts: { run: runContactsSuite, deadlineMs: contactsDeadlineMs },
  startup: { run: runStartupSuite, deadlineMs: startupDeadlineMs },
  soak: { run: runSoakSuite, deadlineMs: soakDeadlineMs },
  webhooks: { run: runWebhooksSuite, deadlineMs: webhooksDeadlineMs },
  broadcasts: { run: runBroadcastsSuite, deadlineMs: broadcastsDeadlineMs },
  automations: { run: runAutomationsSuite, deadlineMs: automationsDeadlineMs },
} as const;

const requested = process.env.BENCH_SUITE || 'api-keys';
const names = requested === 'all' ? (Object.keys(SUITES) as Array<keyof typeof SUITES>) : [requested as keyof typeof SUITES];
for (const name of names) if (!(name in SUITES)) throw new Error(`BENCH_SUITE: unknown suite "${name}" (use api-keys, emails, contacts, startup, soak, webhooks, broadcasts, automations or all)`);

// The whole run, seeding included; a stuck step cannot keep the process alive past it.
const DEADLINE_MS = names.reduce((sum, name) => sum + SUITES[name].deadlineMs(), 0);

// A reader that goes away (`npm run bench | head`) must not kill the run before its cleanup:
// writes to a closed pipe fail with EPIPE, which would otherwise be an uncaught exception.
for (const stream of [process.stdout, process.stderr]) stream.on('error', () => {});
process.on('uncaughtException', (error) => {
  console.error(`[bench] uncaught: ${errorText(error)}`);
  void cleanup().finally(() => process.exit(1));
});

let interrupted = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    interrupted = true;
    console.error(`[bench] ${signal}: cleaning up`);
    void cleanup().finally(() => process.exit(130));
  });
}
const deadline = setTimeout(() => {
  console.error(`[bench] still running after ${DEADLINE_MS / 1000} s: giving up`);
  void cleanup().finally(() => process.exit(1));
}, DEADLINE_MS);
deadline.unref();

let exitCode = 0;
try {
  for (const name of names) {
    if (names.length > 1) log(`suite ${name}`);
    await SUITES[name].run();
  }
} catch (error) {
  // After Ctrl-C the children's deaths surface here as errors; the signal handler said enough.
  if (!interrupted) console.error(`[bench] failed: ${errorText(error)}`);
  exitCode = 1;
} finally {
  await cleanup();
}
process.exit(exitCode);

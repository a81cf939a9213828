import { afterAll, beforeAll, beforeEach } from 'vitest';
import { simpleParser, type ParsedMail } from 'mailparser';
import { createSystemMailer } from '@/server/mail/system-mailer';
import { sweepSystemEmails } from '@/server/services/system-mail/queue';
import { startTestApp, type TestApp, type TestAppOptions } from './app';
import { dashboardCall } from './dashboard-session';
import { startSmtpSink } from './smtp';

type SmtpSink = Awaited<ReturnType<typeof startSmtpSink>>;

/**
 * The test app for the dashboard's own calls, its service mail (system mail) relayed to a loopback
 * SMTP sink. Registers the file's hooks: both start once, and every test begins on an emptied
 * database and sink with the clock at `now`. `app` and `systemMail` are there from `beforeAll` on.
 */
export function dashboardWithSystemMail(options: { now: string; app?: Omit<TestAppOptions, 'systemMailer'> }) {
  let app: TestApp | undefined;
  let systemMail: SmtpSink | undefined;
  beforeAll(async () => {
    systemMail = await startSmtpSink();
    app = await startTestApp({ ...options.app, systemMailer: createSystemMailer({ relayUrl: systemMail.url, dnsServers: [], mxPort: 25, heloName: 'mx.eumail.example' }) });
  });
  afterAll(async () => {
    await app?.close();
    await systemMail?.close();
  });
  beforeEach(async () => {
    await app!.reset();
    systemMail!.messages.length = 0;
    app!.clock.set(options.now);
  });
  const started = <T>(thing: T | undefined): T => {
    if (thing === undefined) throw new Error('the app starts in beforeAll');
    return thing;
  };
  return {
    get app(): TestApp {
      return started(app);
    },
    get systemMail(): SmtpSink {
      return started(systemMail);
    },
    /** A tRPC call as the dashboard makes it, with the person's session cookie. */
    call: (person: { cookie: string }, kind: 'query' | 'mutation', path: string, input: unknown = {}) => dashboardCall(started(app), person.cookie, kind, path, input),
    /** The messages the sink received for `to` whose subject matches, parsed, oldest first (the queue is swept first). */
    async mailTo(to: string, subject: RegExp): Promise<ParsedMail[]> {
      await sweepSystemEmails(started(app).runtime.deps);
      const found: ParsedMail[] = [];
      for (const message of started(systemMail).messages.filter((m) => m.to.includes(to.toLowerCase()))) {
        const mail = await simpleParser(message.raw);
        if (subject.test(mail.subject ?? '')) found.push(mail);
      }
      return found;
    },
  };
}

/** A refused tRPC call as the tests compare it: status, the envelope's code and the message. */
export const refusal = (response: { status: number; body: any }) => ({ status: response.status, code: response.body.error?.data?.envelope?.code, message: response.body.error?.message });

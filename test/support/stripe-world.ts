import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import { eq } from 'drizzle-orm';
import { organizations } from '@/db/schema';
import { startTestApp, type TestApp } from './app';
import { startStripeStandIn, type StripeStandIn } from './stripe-stand-in';

const SECRET_KEY = 'sk_test_standin';
const WEBHOOK_SECRET = 'whsec_standin';

/**
 * The test app with Stripe configured: the official SDK talks to the loopback stand-in, whose
 * events are signed and posted to the app's webhook route. Registers the file's hooks: both start
 * once, and every test begins on an emptied database and stand-in with the clock at `now`.
 * `app` and `standIn` are there from `beforeAll` on.
 */
export function stripeWorld(options: { now: string }) {
  let standIn: StripeStandIn | undefined;
  let app: TestApp | undefined;
  beforeAll(async () => {
    standIn = await startStripeStandIn({ secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET });
    app = await startTestApp({ env: standIn.env });
    standIn.setWebhookUrl(`${app.url}/stripe/webhook`);
  });
  afterAll(async () => {
    await app?.close();
    await standIn?.close();
  });
  beforeEach(async () => {
    await app!.reset();
    standIn!.reset();
    app!.clock.set(options.now);
  });
  const started = <T>(thing: T | undefined): T => {
    if (thing === undefined) throw new Error('the app and the stand-in start in beforeAll');
    return thing;
  };
  const deps = () => started(app).runtime.deps;
  const organization = async (id: string) => (await deps().db.select().from(organizations).where(eq(organizations.id, id)))[0]!;
  return {
    get app(): TestApp {
      return started(app);
    },
    get standIn(): StripeStandIn {
      return started(standIn);
    },
    /** The secret the stand-in signs its events with, as the app is configured. */
    webhookSecret: WEBHOOK_SECRET,
    deps,
    /** The organization's row as it is now. */
    organization,
    /** Pays a checkout session on the stand-in; the signed webhook must raise the organization to `plan`. Answers the subscription. */
    async payCheckout(sessionId: string, organizationId: string, plan: string) {
      const { subscription } = await started(standIn).pay(sessionId);
      expect((await organization(organizationId)).plan).toBe(plan);
      return subscription;
    },
  };
}

import { z } from 'zod';
import { forbidden } from '../errors';
import { API_KEY_MODES } from '../vocabulary/api-keys';
import { BOUNCE_CLASSES } from '../services/bounces/classify';
import { DNS_RECORD_KINDS, DOMAIN_STATUSES } from '../vocabulary/domain-statuses';
import { EMAIL_STATUSES } from '../vocabulary/email-statuses';
import { describeChecklist, type SetupStep } from '../services/overview/checklist';
import { dailyCounts } from '../services/overview/daily-counts';
import { recentFailures } from '../services/overview/recent-failures';
import type { Context } from '../trpc/context';
import { router } from '../trpc/init';
import { orgProcedure } from '../trpc/procedures';
import { isoDate } from './shared';

const checklist = z.object({
  organizationId: z.uuid(),
  mode: z.enum(API_KEY_MODES),
  apiBaseUrl: z.string(),
  steps: z.object({ domain: z.boolean(), records: z.boolean(), verified: z.boolean(), api_key: z.boolean(), email: z.boolean() } satisfies Record<SetupStep, z.ZodBoolean>),
  done: z.boolean(),
  domain: z
    .object({
      id: z.uuid(),
      name: z.string(),
      status: z.enum(DOMAIN_STATUSES),
      recordsFound: z.array(z.enum(DNS_RECORD_KINDS)),
      recordsMissing: z.array(z.enum(DNS_RECORD_KINDS)),
    })
    .nullable(),
  key: z.object({ id: z.uuid(), name: z.string(), tokenStart: z.string(), mode: z.enum(API_KEY_MODES) }).nullable(),
  email: z.object({ id: z.uuid(), mode: z.enum(API_KEY_MODES), subject: z.string(), status: z.enum(EMAIL_STATUSES), createdAt: isoDate }).nullable(),
  sender: z.object({ from: z.string(), to: z.string(), sandbox: z.boolean() }),
});

const activity = z.object({
  mode: z.enum(API_KEY_MODES),
  days: z.array(
    z.object({
      day: z.string(),
      sent: z.number().int(),
      delivered: z.number().int(),
      bounced: z.number().int(),
      complained: z.number().int(),
      opened: z.number().int(),
      machineOpened: z.number().int(),
    }),
  ),
  failures: z.array(
    z.object({
      emailId: z.uuid(),
      subject: z.string(),
      status: z.enum(['bounced', 'failed', 'complained']),
      recipient: z.string().nullable(),
      at: isoDate,
      bounce: z.object({ class: z.enum(BOUNCE_CLASSES), explanation: z.string() }).nullable(),
      reason: z.string().nullable(),
    }),
  ),
});

/** The overview is the dashboard's home, not an API: an API key reads the same facts from the resources themselves. */
const dashboardOnly = (ctx: Context) => {
  if (ctx.channel !== 'dashboard') throw forbidden('The overview is read in the dashboard');
};

/** For the dashboard's home page only (no REST path): getting started, the last seven days, recent failures. */
export const overviewRouter = router({
  checklist: orgProcedure
    .input(z.object({}).optional())
    .output(checklist)
    .query(async ({ ctx }) => {
      dashboardOnly(ctx);
      const result = await describeChecklist(ctx.deps, ctx.principal);
      return { ...result, email: result.email && { ...result.email, createdAt: result.email.createdAt.toISOString() } };
    }),
  activity: orgProcedure
    .input(z.object({}).optional())
    .output(activity)
    .query(async ({ ctx }) => {
      dashboardOnly(ctx);
      const [days, failures] = await Promise.all([dailyCounts(ctx.deps, ctx.principal), recentFailures(ctx.deps, ctx.principal)]);
      return { mode: ctx.principal.mode, days, failures: failures.map((failure) => ({ ...failure, at: failure.at.toISOString() })) };
    }),
});

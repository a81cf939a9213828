import type { Deps } from '../deps';
import { isUuid } from '../ids';
import { sandboxRecords } from '../services/domains/sandbox';
import { systemMailRecords } from '../services/system-mail/records';
import { describeUsage } from '../services/plans/usage';
import { AppError, validationError } from '../errors';
import { CLOCK_USAGE, isClockCommand, runClockCommand } from './clock-commands';
import {
  createOrganizationWithKey,
  getOrganization,
  setOverage,
  setRateLimit,
  setStatus,
  type Organization,
} from '../services/organizations/organizations';
import { confirmOwnerByOperator } from '../services/organizations/owner-confirmation';
import { changePlan, type PlanChange } from '../services/plans/changes';
import { listOpenPlanRequests } from '../services/plans/requests';
import { reviewOrganization } from '../services/broadcasts/holds';
import { OPERATOR } from '../services/audit/record';
import { deliveryStatus, pauseProvider, resumeProvider } from '../services/delivery-shaping';

export const ADMIN_USAGE = `Usage: npm run admin -- <command> [options]   (prints JSON)
  org:create     --name N --owner-email E --plan P [--created-at ISO] [--mode live|test]
                 (--mode: of the full_access key it prints, live by default)
  org:show       --org ID
  org:confirm    --org ID        (vouch for the owner's address: live sending no longer waits on the mailed link)
  org:plan       --org ID --plan free|10k|25k|50k|100k|250k|500k|1m|2m [--now]
                 (up: at once; down: at the start of next month, or at once with --now;
                  answers an open request: approved when it is the plan asked for)
  org:requests                   (upgrades customers asked for in the dashboard, waiting for org:plan)
  org:review     --org ID --approve | --revoke
  org:status     --org ID --status active|restricted|suspended|paused
  org:overage    --org ID --on | --off
  org:rate-limit --org ID --limit N | --default
  org:usage      --org ID        (the month's and today's counters against their limits, as GET /usage)
  sandbox:records                (the DNS records to publish for SANDBOX_DOMAIN)
  system-mail:records            (the DNS records to publish for SYSTEM_MAIL_FROM's domain: DKIM, return path, SPF, DMARC)
  delivery:status                (per mailbox provider: recipients queued, rate, deferral rate, pauses)
  delivery:pause  --provider P [--domain D] [--reason R]
                 (hold deliveries to P, for sending domain D or for everyone, until delivery:resume)
  delivery:resume --provider P [--domain D]
                 (end D's pause, or every pause of P)
${CLOCK_USAGE}`;

export type AdminArgs = Record<string, string | true>;

export function parseAdminArgs(argv: string[]): { command: string; args: AdminArgs } {
  const [command, ...rest] = argv;
  if (!command) throw validationError('no command given');
  const args: AdminArgs = {};
  for (let i = 0; i < rest.length; i += 1) {
    const flag = rest[i]!;
    if (!flag.startsWith('--')) throw validationError(`unexpected argument "${flag}"`);
    const next = rest[i + 1];
    if (next !== undefined && !next.startsWith('--')) {
      args[flag.slice(2)] = next;
      i += 1;
    } else {
      args[flag.slice(2)] = true;
    }
  }
  return { command, args };
}

const text = (args: AdminArgs, name: string): string => {
  const value = args[name];
  if (typeof value !== 'string' || value.trim() === '') throw validationError(`--${name} is required`);
  return value;
};

const optionalText = (args: AdminArgs, name: string): string | undefined => (args[name] === undefined ? undefined : text(args, name));

const orgId = (args: AdminArgs): string => {
  const id = text(args, 'org');
  if (!isUuid(id)) throw validationError('--org must be an organization id (a UUID)');
  return id;
};

const toggle = (args: AdminArgs, on: string, off: string): boolean => {
  if (args[on] === true && args[off] !== true) return true;
  if (args[off] === true && args[on] !== true) return false;
  throw validationError(`give exactly one of --${on} or --${off}`);
};

const view = (organization: Organization) => ({
  organizationId: organization.id,
  name: organization.name,
  plan: organization.plan,
  status: organization.status,
  reviewed: organization.reviewed,
  overageEnabled: organization.overageEnabled,
  ownerEmail: organization.ownerEmail,
  ownerConfirmedAt: organization.ownerConfirmedAt?.toISOString() ?? null,
  rateLimitOverride: organization.rateLimitOverride,
  createdAt: organization.createdAt.toISOString(),
  pendingPlan: organization.pendingPlan,
  pendingPlanAt: organization.pendingPlanAt?.toISOString() ?? null,
});

const changeView = (change: PlanChange) => ({
  kind: change.kind,
  effectiveAt: change.effectiveAt.toISOString(),
  ...(change.proratedChargeEurCents === undefined ? {} : { proratedChargeEurCents: change.proratedChargeEurCents }),
});

/** The operator's commands; each calls an organization service and answers with JSON. */
export async function runAdminCommand(deps: Deps, command: string, args: AdminArgs): Promise<unknown> {
  if (isClockCommand(command)) return runClockCommand(deps, command, args);
  switch (command) {
    case 'org:create': {
      const createdAt = typeof args['created-at'] === 'string' ? new Date(args['created-at']) : undefined;
      if (createdAt && Number.isNaN(createdAt.getTime())) throw validationError('--created-at must be an ISO 8601 time');
      const ownerEmail = text(args, 'owner-email');
      if (!/^[^@\s]+@[^@\s]+$/.test(ownerEmail)) throw validationError('--owner-email must be an email address');
      const keyMode = args.mode === undefined ? 'live' : args.mode;
      if (keyMode !== 'live' && keyMode !== 'test') throw validationError('--mode must be live or test');
      return createOrganizationWithKey(deps, { name: text(args, 'name'), ownerEmail, plan: text(args, 'plan'), createdAt, keyMode });
    }
    case 'org:show':
      return view(await getOrganization(deps, orgId(args)));
    case 'org:confirm': {
      const id = orgId(args);
      await confirmOwnerByOperator(deps, id);
      return view(await getOrganization(deps, id));
    }
    case 'org:plan': {
      const { organization, change } = await changePlan(deps, orgId(args), text(args, 'plan'), { immediately: args.now === true, by: OPERATOR });
      return { ...view(organization), change: changeView(change) };
    }
    case 'org:requests':
      return listOpenPlanRequests(deps);
    case 'org:review':
      return view(await reviewOrganization(deps, orgId(args), toggle(args, 'approve', 'revoke'), OPERATOR));
    case 'org:status':
      return view(await setStatus(deps, orgId(args), text(args, 'status'), OPERATOR));
    case 'org:overage':
      return view(await setOverage(deps, orgId(args), toggle(args, 'on', 'off'), OPERATOR));
    case 'org:rate-limit': {
      const limit = args.default === true ? null : Number(text(args, 'limit'));
      return view(await setRateLimit(deps, orgId(args), limit, OPERATOR));
    }
    case 'org:usage':
      return describeUsage(deps, orgId(args));
    case 'sandbox:records':
      return { domain: deps.sandbox.name, records: sandboxRecords(deps.sandbox, deps.config.mailHost) };
    case 'system-mail:records':
      return systemMailRecords(deps.systemSender, deps.config.mailHost);
    case 'delivery:status':
      return { providers: await deliveryStatus(deps) };
    case 'delivery:pause':
      return pauseProvider(deps, { provider: text(args, 'provider'), sendingDomain: optionalText(args, 'domain'), reason: optionalText(args, 'reason') });
    case 'delivery:resume':
      return resumeProvider(deps, { provider: text(args, 'provider'), sendingDomain: optionalText(args, 'domain') });
    default:
      throw new AppError('VALIDATION_ERROR', `unknown command "${command}"`);
  }
}

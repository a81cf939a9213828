import { z } from 'zod';
import { forbidden } from '../errors';
import { listAuditEvents } from '../services/audit/list';
import { AUDIT_ACTION_GROUPS, AUDIT_ACTIONS, AUDIT_ACTOR_KINDS, AUDIT_TARGET_TYPES } from '../vocabulary/audit';
import { router } from '../trpc/init';
import { orgProcedure } from '../trpc/procedures';
import { isoDate, pageQuery } from './shared';

const auditEvent = z.object({
  id: z.uuid(),
  occurredAt: isoDate,
  actor: z.object({ kind: z.enum(AUDIT_ACTOR_KINDS), id: z.string().nullable(), label: z.string().nullable() }),
  action: z.enum(AUDIT_ACTIONS),
  target: z.object({ type: z.enum(AUDIT_TARGET_TYPES), id: z.string(), label: z.string().nullable() }),
  clientAddress: z.string().nullable(),
  userAgent: z.string().nullable(),
  details: z.record(z.string(), z.unknown()),
});

/**
 * For the dashboard only (no REST path, and refused to API keys on /api/trpc too): the
 * organization's audit log, read by its owner.
 */
export const auditLogRouter = router({
  list: orgProcedure
    .input(z.object({ ...pageQuery({ max: 100, default: 25 }), group: z.enum(AUDIT_ACTION_GROUPS).optional() }))
    .output(z.object({ data: z.array(auditEvent), next_cursor: z.uuid().nullable() }))
    .query(async ({ ctx, input }) => {
      if (ctx.channel !== 'dashboard') throw forbidden('The audit log is read in the dashboard, by the organization owner');
      const page = await listAuditEvents(ctx.deps, ctx.principal, input);
      return { data: page.data, next_cursor: page.nextCursor };
    }),
});

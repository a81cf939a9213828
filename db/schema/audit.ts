import { index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { organizations } from './organizations';
import { AUDIT_ACTIONS, AUDIT_ACTOR_KINDS, AUDIT_TARGET_TYPES } from '@/server/vocabulary/audit';

/**
 * Who changed what in an organization, when and from where (docs/audit-log.md). The actor's and
 * the target's labels are copied at the time, so a row still reads right once the key, the
 * webhook or the person is gone.
 */
export const auditEvents = pgTable(
  'audit_events',
  {
    id: uuid('id').primaryKey(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    occurredAt: timestamp('occurred_at', { withTimezone: true, mode: 'date' }).notNull(),
    /** user | api_key | operator */
    actorKind: text('actor_kind', { enum: AUDIT_ACTOR_KINDS }).notNull(),
    /** The user's or the key's id; null for the operator. No foreign key: the row outlives them. */
    actorId: text('actor_id'),
    /** The user's email, or the key's name and first characters, as they were. */
    actorLabel: text('actor_label'),
    action: text('action', { enum: AUDIT_ACTIONS }).notNull(),
    targetType: text('target_type', { enum: AUDIT_TARGET_TYPES }).notNull(),
    targetId: text('target_id').notNull(),
    targetLabel: text('target_label'),
    /** The request's client address as the service decides it (TRUSTED_PROXY_CIDRS); null from the CLI. */
    clientAddress: text('client_address'),
    userAgent: text('user_agent'),
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
  },
  (t) => [
    // The owner's list, newest first, page by page.
    index('audit_events_org_time_idx').on(t.organizationId, t.occurredAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    // The hourly retention sweep deletes by age across organizations.
    index('audit_events_time_idx').on(t.occurredAt),
  ],
);

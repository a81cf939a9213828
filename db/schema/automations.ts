import { sql } from 'drizzle-orm';
import { boolean, index, uniqueIndex, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { AUTOMATION_STATUSES, CONTACT_CREATIONS, RUN_STATUSES, RUN_STEP_STATES, RUN_STEP_STATUSES, type ConnectionType, type StepType } from '@/server/vocabulary/automations';
import { contacts } from './audiences';
import { claimColumns } from './claims';
import { organizations } from './organizations';

/** One step of a definition as stored: its key, type and config as the customer wrote them (checked). */
export interface StoredStep {
  key: string;
  type: StepType;
  config: Record<string, unknown>;
}

/** One connection as stored, its type always written out (`default` when the request left it out). */
export interface StoredConnection {
  from: string;
  to: string;
  type: ConnectionType;
}

export interface AutomationDefinition {
  steps: StoredStep[];
  connections: StoredConnection[];
}

/**
 * An automation (docs/automations.md): its name, whether it starts runs, and which of its versions
 * is current. What it does lives in `automation_versions`; a run pins the version it started on, so
 * an edit never changes a run under way. Deleted automations stay as rows (`deleted_at`) so the runs
 * and emails that name them still resolve to a name; every read of the API passes them over.
 */
export const automations = pgTable(
  'automations',
  {
    id: uuid('id').primaryKey(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    status: text('status', { enum: AUTOMATION_STATUSES }).notNull(),
    /** The version new runs start on: the highest of `automation_versions` for this automation. */
    currentVersion: integer('current_version').notNull(),
    /**
     * The current version's trigger event (`user.created`, `contact.created`, `email.opened`, …),
     * copied out so the events that start runs find their automations by an index, not by reading
     * every definition.
     */
    triggerEventName: text('trigger_event_name').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull(),
    deletedAt: timestamp('deleted_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    index('automations_org_idx').on(t.organizationId, t.id),
    index('automations_enabled_trigger_idx').on(t.organizationId, t.triggerEventName).where(sql`${t.status} = 'enabled' and ${t.deletedAt} is null`),
  ],
);

/**
 * One version of an automation's definition, never changed once written (a trigger in the migration
 * refuses updates): runs started on it finish on it whatever the automation becomes.
 */
export const automationVersions = pgTable(
  'automation_versions',
  {
    automationId: uuid('automation_id')
      .notNull()
      .references(() => automations.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    organizationId: uuid('organization_id').notNull(),
    definition: jsonb('definition').$type<AutomationDefinition>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.automationId, t.version] })],
);

/**
 * One contact's way through one version of an automation (docs/automations.md, "Runs"). The row is
 * the truth of where it stands: its cursor step, whether it waits there, until when, and for which
 * event; the run engine claims due rows (claim columns) and moves the cursor one step per
 * transaction, in the transaction that does the step's work (an email stored, a contact changed),
 * so a crash repeats nothing and loses nothing.
 */
export const automationRuns = pgTable(
  'automation_runs',
  {
    id: uuid('id').primaryKey(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    automationId: uuid('automation_id')
      .notNull()
      .references(() => automations.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    /** Null once the contact is deleted (the run ends at its next step); the address stays for the record. */
    contactId: uuid('contact_id').references(() => contacts.id, { onDelete: 'set null' }),
    contactEmail: text('contact_email').notNull(),
    /** Started by a test key's event: its emails are simulated (test mode), and only test reads see it. */
    test: boolean('test').notNull().default(false),
    status: text('status', { enum: RUN_STATUSES }).notNull(),
    /** The step the run is at (while running) or ended at. */
    stepKey: text('step_key').notNull(),
    stepState: text('step_state', { enum: RUN_STEP_STATES }).notNull(),
    /** How many steps the run has taken: each step's idempotency key is the run and this number. */
    stepCount: integer('step_count').notNull().default(0),
    /** When the run is due to act (a delay's end, a wait's timeout, a retry); null once it ended. */
    dueAt: timestamp('due_at', { withTimezone: true, mode: 'date' }),
    /** The event a `wait_for_event` step waits for (its name), so an arriving event finds its runs by index. */
    waitingFor: text('waiting_for'),
    /** The event that started the run: `{ name, payload }`, read by `event.*` variables and conditions. */
    event: jsonb('event').$type<RunEvent>().notNull(),
    /** The event a wait received, once it came (its payload is then what `event.*` reads). */
    receivedEvent: jsonb('received_event').$type<RunEvent>(),
    /** The run's previous email, for a condition on `email.opened` / `email.clicked`. */
    lastEmailId: uuid('last_email_id'),
    /** Attempts of the current step that were refused for a while (a sending limit): the step is tried again later. */
    attempts: integer('attempts').notNull().default(0),
    /** Why it was cancelled, or what failed. */
    endedReason: text('ended_reason'),
    error: text('error'),
    ...claimColumns(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull(),
    completedAt: timestamp('completed_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    index('automation_runs_automation_idx').on(t.automationId, t.createdAt, t.id),
    index('automation_runs_due_idx').on(t.dueAt).where(sql`${t.status} = 'running'`),
    index('automation_runs_waiting_idx').on(t.contactId, t.waitingFor).where(sql`${t.status} = 'running' and ${t.waitingFor} is not null`),
    // Re-entry reads a contact's runs of an automation; stats count running runs by step.
    index('automation_runs_contact_idx').on(t.automationId, t.contactId, t.createdAt),
    // Retention finds the finished runs past their date (automations/retention.ts).
    index('automation_runs_finished_idx').on(t.completedAt).where(sql`${t.status} <> 'running'`),
  ],
);

/** An event as a run keeps it: its name and the payload it came with. */
export interface RunEvent {
  name: string;
  payload: Record<string, unknown>;
}

/**
 * A run's history: one row per step it took (or waits in), in order, with what the step did
 * (`output`: an email id, a branch taken, a wait's end) or why it failed. Resend's run steps.
 */
export const automationRunSteps = pgTable(
  'automation_run_steps',
  {
    runId: uuid('run_id')
      .notNull()
      .references(() => automationRuns.id, { onDelete: 'cascade' }),
    /** The run's step count when the step was taken: the step's idempotency key with the run id. */
    seq: integer('seq').notNull(),
    key: text('key').notNull(),
    type: text('type').$type<StepType>().notNull(),
    status: text('status', { enum: RUN_STEP_STATUSES }).notNull(),
    output: jsonb('output').$type<Record<string, unknown>>(),
    error: jsonb('error').$type<Record<string, unknown>>(),
    startedAt: timestamp('started_at', { withTimezone: true, mode: 'date' }).notNull(),
    completedAt: timestamp('completed_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [primaryKey({ columns: [t.runId, t.seq] })],
);

/**
 * An event name the organization declared (Resend's `POST /events`): what `POST /events/send` may
 * send and a trigger or a wait may name, with the payload's fields and their types when given
 * (a sent payload is checked against them).
 */
export const customEvents = pgTable(
  'custom_events',
  {
    id: uuid('id').primaryKey(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    schema: jsonb('schema').$type<Record<string, CustomEventFieldType>>(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [uniqueIndex('custom_events_organization_name_unique').on(t.organizationId, t.name)],
);

export type CustomEventFieldType = 'string' | 'number' | 'boolean' | 'date';

/**
 * Each event sent with `POST /events/send`: who it was for, its payload, how many runs it started
 * and how many waits it ended. (The events this service raises itself are in the event log.) Kept
 * as long as the plan keeps logs.
 */
export const receivedEvents = pgTable(
  'received_events',
  {
    id: uuid('id').primaryKey(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    contactId: uuid('contact_id').references(() => contacts.id, { onDelete: 'set null' }),
    email: text('email').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    test: boolean('test').notNull(),
    runsStarted: integer('runs_started').notNull(),
    waitsEnded: integer('waits_ended').notNull(),
    /** For an address that was no contact, when a trigger asked to create it: `created`, or `skipped_test_mode` (a test key's event creates none). */
    contactCreation: text('contact_creation', { enum: CONTACT_CREATIONS }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [index('received_events_org_idx').on(t.organizationId, t.createdAt)],
);

/**
 * Each email a run's `send_email` step stored, written in the step's transaction: what the
 * automation's page counts (sent, and their outcomes by joining the emails), and what an
 * unsubscribe from the email leaves (its topic, else all list mail). No foreign key to the email:
 * retention deletes emails, and the count of what was sent outlives them. The run may go before
 * it too (`run_id` set null when retention deletes the finished run): the email's unsubscribe link
 * reads this row, and keeps working for its own, longer retention (automations/retention.ts).
 */
export const automationEmails = pgTable(
  'automation_emails',
  {
    emailId: uuid('email_id').primaryKey(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    automationId: uuid('automation_id')
      .notNull()
      .references(() => automations.id, { onDelete: 'cascade' }),
    runId: uuid('run_id').references(() => automationRuns.id, { onDelete: 'set null' }),
    stepKey: text('step_key').notNull(),
    contactId: uuid('contact_id'),
    topicId: uuid('topic_id'),
    test: boolean('test').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [index('automation_emails_automation_idx').on(t.automationId, t.createdAt), index('automation_emails_created_idx').on(t.createdAt)],
);

/**
 * Runs started per organization and calendar month (UTC, `YYYY-MM`): what the plan's
 * `automationRunsPerMonth` is held against, moved in the transaction that starts the runs (a
 * counter row, not a count over the runs: an event reads one row however many runs there are).
 */
export const automationRunMonths = pgTable(
  'automation_run_months',
  {
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    month: text('month').notNull(),
    started: integer('started').notNull(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.month] })],
);

/**
 * Where the email-event feed (automations/triggers/email-feed.ts) stands in an organization's event
 * log: the last event it read (`after_id`), or, before it read any, the time it started from. A row
 * exists only while the organization has an enabled automation on an email event: the sweep deletes
 * it once none is left, so enabling one later starts from then, never from an old backlog. The
 * cursor moves in the transaction that starts the runs of the events it passes, so each email event
 * starts its runs exactly once.
 */
export const automationEmailFeeds = pgTable('automation_email_feeds', {
  organizationId: uuid('organization_id')
    .primaryKey()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  afterId: uuid('after_id'),
  fromAt: timestamp('from_at', { withTimezone: true, mode: 'date' }).notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull(),
});

/**
 * The last day (UTC) the date sweep started an automation's `contact.date_reached` runs, written in
 * the transaction that started them: the sweep run twice in a day starts nothing the second time.
 */
export const automationDateSweeps = pgTable('automation_date_sweeps', {
  automationId: uuid('automation_id')
    .primaryKey()
    .references(() => automations.id, { onDelete: 'cascade' }),
  sweptOn: text('swept_on').notNull(),
});

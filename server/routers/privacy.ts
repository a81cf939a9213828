import { z } from 'zod';
import { API_KEY_MODES } from '../vocabulary/api-keys';
import { CONTACT_CREATIONS, RUN_STATUSES, RUN_STEP_STATUSES, STEP_TYPES } from '../vocabulary/automations';
import { EMAIL_STATUSES } from '../vocabulary/email-statuses';
import { eraseRecipientData } from '../services/privacy/erase';
import { describeProcessingActivities } from '../services/privacy/processing-activities';
import { recipientData } from '../services/privacy/recipient-data';
import { HOST_ROLES } from '../services/privacy/service-hosts';
import { EVENT_TYPES } from '../vocabulary/event-types';
import { FORM_SUBMISSION_STATUSES } from '../vocabulary/forms';
import { SUPPRESSION_REASONS } from '../vocabulary/suppression-reasons';
import { router } from '../trpc/init';
import { orgProcedure } from '../trpc/procedures';
import { importRowError } from './contact-imports/router';
import { contactProfile } from './contacts';
import { decodedPathParam, isoDate } from './shared';
import { consentEntry } from './contact-consent';

const tags = ['Privacy'];

export const serviceHost = z
  .object({
    host: z.string(),
    role: z.enum(HOST_ROLES).describe('service: the API and dashboard; mail_host: hands mail over and takes bounce reports; relay: SMTP_RELAY_URL; recipient_mx: a receiving server'),
    purpose: z.string(),
  })
  .meta({ id: 'ServiceHost' });

export const retentionTerms = {
  plan: z.object({ id: z.string(), label: z.string() }).describe('The plan stored on the organization: the one the retention sweep applies'),
  logRetentionDays: z.number().int().describe('Email records, bodies, history, the event log and webhook deliveries'),
  attachmentRetentionDays: z.number().int().describe('Attachment contents, at every plan'),
  auditRetentionDays: z.number().int(),
};

const processingActivities = z
  .object({
    generatedAt: isoDate,
    region: z.string().describe('Where everything is processed and stored: EU'),
    controller: z.object({ organizationId: z.uuid(), name: z.string(), contact: z.string().describe("The owner's address") }),
    processor: z.object({ name: z.string(), baseUrl: z.string(), hosts: z.array(serviceHost) }),
    retention: z.object({
      ...retentionTerms,
      rules: z.array(z.object({ data: z.string(), days: z.number().int().nullable().describe('null: kept until removed'), note: z.string() })),
    }),
    activities: z.array(
      z.object({
        id: z.string(),
        name: z.string(),
        purpose: z.string(),
        dataSubjects: z.array(z.string()),
        dataCategories: z.array(z.string()),
        recipients: z.array(z.string()),
        retention: z.string(),
      }),
    ),
    subProcessors: z
      .array(z.object({ name: z.string(), purpose: z.string(), location: z.string(), source: z.enum(['configured', 'relay']) }))
      .describe("None by default; the operator's PRIVACY_SUBPROCESSORS, and the SMTP relay when one is configured"),
    securityMeasures: z.array(z.object({ id: z.string(), title: z.string(), detail: z.string() })),
  })
  .meta({ id: 'ProcessingActivities' });

/** `{email}`: the data subject's address, URL-encoded (`ada%40example.com`). */
const addressParam = decodedPathParam({ format: 'idn-email', description: 'The address, URL-encoded (ada%40example.com); any case, an IDN domain in Unicode or punycode' });

const recipientDataOutput = z
  .object({
    email: z.string().describe('The address as stored: lowercase, an IDN domain as punycode'),
    emails: z
      .array(
        z.object({
          id: z.uuid(),
          mode: z.enum(API_KEY_MODES),
          subject: z.string(),
          status: z.enum(EMAIL_STATUSES),
          createdAt: isoDate,
          role: z.enum(['recipient', 'sender', 'both']),
        }),
      )
      .describe('Emails to it (to, cc or bcc) or from it, live and test, oldest first'),
    events: z
      .array(z.object({ id: z.uuid(), type: z.enum(EVENT_TYPES), createdAt: isoDate, emailId: z.uuid().nullable() }))
      .describe('Event-log entries about it (GET /events, webhooks), oldest first'),
    contacts: z.array(
      z.object({ id: z.uuid(), audienceId: z.uuid(), audienceName: z.string(), name: z.string().nullable(), subscribed: z.boolean(), createdAt: isoDate }),
    ),
    suppressions: z
      .array(z.object({ id: z.uuid(), reason: z.enum(SUPPRESSION_REASONS), createdAt: isoDate, emailId: z.uuid().nullable(), hashed: z.boolean().describe('Kept as a keyed hash after an erasure') }))
      .describe('Entries for the address, and its hashed entry once erased'),
    contact: contactProfile.nullable().describe("The organization's contact of the address (one per address), in an audience or not; null when none"),
    topics: z
      .array(z.object({ id: z.uuid(), name: z.string(), subscription: z.enum(['opt_in', 'opt_out']), updatedAt: isoDate }))
      .describe("The contact's own topic choices; a topic it never chose on follows the topic's default"),
    imports: z
      .array(z.object({ id: z.uuid(), fileName: z.string().nullable(), createdAt: isoDate, errors: z.array(importRowError) }))
      .describe('Contact imports that list the address among the rows they did not import, with those rows, oldest first'),
    consent: z.array(consentEntry).describe("The address's consent ledger, oldest first, with the entries kept by hash after an erasure"),
    formSubmissions: z
      .array(
        z.object({
          id: z.uuid(),
          formId: z.uuid(),
          formName: z.string(),
          status: z.enum(FORM_SUBMISSION_STATUSES),
          consentVersion: z.number().int().describe("The version of the form's consent text the person was shown"),
          values: z.object({ firstName: z.string().nullable(), lastName: z.string().nullable(), properties: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])) }),
          clientAddress: z.string().nullable(),
          userAgent: z.string().nullable(),
          createdAt: isoDate,
        }),
      )
      .describe("Its submissions of the organization's sign-up forms, oldest first; each is kept for the plan's log retention"),
    automationRuns: z
      .array(
        z.object({
          id: z.uuid(),
          automationId: z.uuid(),
          automationName: z.string(),
          mode: z.enum(API_KEY_MODES),
          status: z.enum(RUN_STATUSES),
          event: z.object({ name: z.string(), payload: z.record(z.string(), z.unknown()) }).describe('The event that started the run'),
          startedAt: isoDate.nullable().describe('When its trigger step was taken'),
          completedAt: isoDate.nullable(),
          createdAt: isoDate,
          steps: z.array(z.object({ key: z.string(), type: z.enum(STEP_TYPES), status: z.enum(RUN_STEP_STATUSES), startedAt: isoDate, completedAt: isoDate.nullable() })).describe('Each step taken, in order'),
        }),
      )
      .describe("Its automation runs, live and test, oldest first; a finished run is kept for the plan's log retention from when it ended"),
    receivedEvents: z
      .array(
        z.object({
          id: z.uuid(),
          event: z.string(),
          mode: z.enum(API_KEY_MODES),
          payload: z.record(z.string(), z.unknown()),
          runsStarted: z.number().int(),
          waitsEnded: z.number().int(),
          contactCreation: z.enum(CONTACT_CREATIONS).nullable().describe("Whether it created the contact (a trigger's create_contact)"),
          createdAt: isoDate,
        }),
      )
      .describe("The events the organization sent for it (POST /events/send), oldest first; each is kept for the plan's log retention"),
  })
  .meta({ id: 'RecipientData' });

const erasure = z
  .object({
    email: z.string(),
    erased: z.object({ emails: z.number().int(), events: z.number().int(), contacts: z.number().int(), suppressions: z.number().int() }),
    keptSuppression: z
      .object({ id: z.uuid(), reason: z.enum(SUPPRESSION_REASONS) })
      .nullable()
      .describe('The entry kept as a keyed hash because the address asked not to be mailed (unsubscribe, complaint or manual), so sends to it stay suppressed'),
    consentEntriesHashed: z.number().int().describe("Consent-ledger entries kept as the proof of what the person agreed to and when they opted out, with the address replaced by its keyed hash and their client's address and user agent dropped"),
  })
  .meta({ id: 'RecipientErasure' });

export const privacyRouter = router({
  processingActivities: orgProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/organization/processing-activities',
        operationId: 'getProcessingActivities',
        tags,
        summary: "The organization's record of processing activities (GDPR Art. 30): data, purposes, retention, sub-processors, security",
        description: 'A full_access key, or the owner in the dashboard.',
      },
    })
    .input(z.object({}).optional())
    .output(processingActivities)
    .query(({ ctx }) => describeProcessingActivities(ctx.deps, ctx.principal)),

  recipientData: orgProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/recipients/{email}/data',
        operationId: 'getRecipientData',
        tags,
        summary: 'Everything held for one address: emails, events, contacts and suppression entries (GDPR Art. 15)',
        description: 'Live and test data alike, so a live full_access key (or the owner in the dashboard); 404 when nothing is held.',
      },
    })
    .input(z.strictObject({ email: addressParam }))
    .output(recipientDataOutput)
    .query(({ ctx, input }) => recipientData(ctx.deps, ctx.principal, input.email)),

  eraseRecipientData: orgProcedure
    .meta({
      openapi: {
        method: 'DELETE',
        path: '/recipients/{email}/data',
        operationId: 'eraseRecipientData',
        tags,
        summary: 'Erase everything held for one address, keeping only a hashed suppression when it asked not to be mailed (GDPR Art. 17)',
        description: '409 while one of its emails is being handed to a mail server; 404 when nothing is held.',
      },
      liveWrite: true,
      errors: [409],
    })
    .input(z.strictObject({ email: addressParam }))
    .output(erasure)
    .mutation(({ ctx, input }) => eraseRecipientData(ctx.deps, ctx.principal, input.email)),
});

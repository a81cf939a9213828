import { AUTOMATION_EMAIL_RETENTION_DAYS } from '../automations/retention';
import type { RetentionTerms } from './retention-terms';

/** One processing activity carried out for the organization (Art. 30(2)(b)): why, about whom, what, to whom, how long. */
export interface ProcessingActivity {
  id: string;
  name: string;
  purpose: string;
  dataSubjects: string[];
  dataCategories: string[];
  /** Who receives the data in the course of it. */
  recipients: string[];
  retention: string;
}

export interface RetentionRule {
  data: string;
  /** null: kept until the organization removes it. */
  days: number | null;
  note: string;
}

/** The activities, with the organization's retention and the hosts of its webhook endpoints filled in. */
export function processingActivities(terms: RetentionTerms, webhookHosts: string[], relay: string | null): ProcessingActivity[] {
  const log = `${terms.logRetentionDays} days (${terms.plan.label})`;
  const delivery = relay ? [`The SMTP relay ${relay}, which delivers to the recipients’ mail servers`] : ['The recipients’ mail servers (MX hosts)'];
  return [
    {
      id: 'transactional_email',
      name: 'Sending email',
      purpose: 'Deliver the messages the organization sends through the API, batches and the SMTP gateway',
      dataSubjects: ['Recipients of the organization’s emails', 'People named as sender or Reply-To'],
      dataCategories: ['Email addresses and display names', 'Subject', 'Message bodies', 'Attachments', 'Custom headers and tags'],
      recipients: delivery,
      retention: `Messages ${log}; attachment contents ${terms.attachmentRetentionDays} days`,
    },
    {
      id: 'broadcasts',
      name: 'Broadcasts to audiences',
      purpose: 'Send one message to every subscribed contact of an audience, with one-click unsubscribe',
      dataSubjects: ['Contacts in the organization’s audiences'],
      dataCategories: ['Email address', 'Name', 'Subscription state'],
      recipients: delivery,
      retention: `Contacts until removed; each message ${log}`,
    },
    {
      id: 'delivery_tracking',
      name: 'Delivery, open and click tracking',
      purpose: 'Report whether each message was delivered, bounced or complained about, and (where enabled) opened or clicked',
      dataSubjects: ['Recipients of the organization’s emails'],
      dataCategories: ['Delivery status and the receiving server’s answer', 'IP network of the client (truncated)', 'User agent', 'Clicked link'],
      recipients: ['The organization (dashboard, API, event log)'],
      retention: log,
    },
    {
      id: 'suppression_list',
      name: 'Suppression list',
      purpose: 'Stop sending to addresses that bounced, complained, unsubscribed or were added by the organization',
      dataSubjects: ['Recipients who bounced, complained or unsubscribed'],
      dataCategories: ['Email address (or, once erased, its keyed hash)', 'Reason', 'The email that caused it'],
      recipients: ['None: used only to refuse sends'],
      retention: 'Until removed by the organization',
    },
    {
      id: 'consent_ledger',
      name: 'Consent ledger',
      purpose: 'Prove each contact’s consent and opt-outs (GDPR Art. 7(1)): every change, when, and through what',
      dataSubjects: ['Contacts', 'Recipients who unsubscribed, complained or bounced'],
      dataCategories: ['Email address (or, once erased, its keyed hash)', 'What changed and through what (form and consent text, key, import, member, link)', 'The person’s IP address and user agent, for changes they made themselves'],
      recipients: ['The organization (API, dashboard, data-subject export)'],
      retention: 'As long as the organization’s account; an erasure keeps the entries by hash, without the client',
    },
    {
      id: 'sign_up_forms',
      name: 'Sign-up forms',
      purpose: 'Take sign-ups from the organization’s hosted forms, with double opt-in when the form asks for it',
      dataSubjects: ['People who fill in a form'],
      dataCategories: ['Email address, names and the property values the form asks', 'The consent text version shown', 'The person’s IP address and user agent'],
      recipients: ['The organization (API, dashboard, data-subject export)'],
      retention: `Submissions ${log}; what they prove stays in the consent ledger`,
    },
    {
      id: 'automations',
      name: 'Automations',
      purpose: 'Take contacts through the organization’s automations (emails, waits, contact changes) on its own events and this service’s',
      dataSubjects: ['Contacts', 'People the organization sends its own events about'],
      dataCategories: ['Email address', 'Contact fields and properties', 'The payloads of the organization’s events', 'Each run’s steps and what they did'],
      recipients: delivery,
      retention: `Finished runs and their steps ${log} from when they finished; events sent ${log}; runs still going until they end`,
    },
    {
      id: 'webhooks',
      name: 'Event notifications (webhooks)',
      purpose: 'Deliver signed events about emails, contacts, domains and broadcasts to the organization’s own endpoints',
      dataSubjects: ['Recipients of the organization’s emails', 'Contacts'],
      dataCategories: ['Email addresses', 'Subject and tags', 'Delivery and tracking events'],
      recipients: webhookHosts.length > 0 ? webhookHosts.map((host) => `The organization’s endpoint at ${host}`) : ['No endpoint is configured'],
      retention: `Events and their deliveries ${log}`,
    },
    {
      id: 'account',
      name: 'Account, access and audit',
      purpose: 'Let the organization’s people sign in, and record who changed what',
      dataSubjects: ['The organization’s team members'],
      dataCategories: ['Name and email address', 'Sign-in IP address and user agent'],
      recipients: ['The organization’s owner (audit log)'],
      retention: `Audit log ${terms.auditRetentionDays} days; the account until it is closed`,
    },
  ];
}

/** How long each kind of data is kept under the organization's plan. */
export function retentionRules(terms: RetentionTerms): RetentionRule[] {
  return [
    { data: 'Email records, bodies and event history', days: terms.logRetentionDays, note: `From when the email was accepted; deleted, not archived (${terms.plan.label})` },
    { data: 'Attachment contents', days: terms.attachmentRetentionDays, note: 'At every plan; the email keeps listing file name, size and type' },
    { data: 'Event log and webhook deliveries', days: terms.logRetentionDays, note: 'From each event' },
    { data: 'Contacts', days: null, note: 'Until removed or erased' },
    { data: 'Suppression entries', days: null, note: 'Until removed; an erased address that asked not to be mailed stays as a keyed hash' },
    { data: 'Sign-up form submissions', days: terms.logRetentionDays, note: 'From each submission, with its client’s address and user agent; the consent ledger keeps the proof' },
    { data: 'Consent ledger', days: null, note: 'For the life of the account (the proof of consent and opt-outs); an erased address’s entries stay as a keyed hash, without the client’s address' },
    { data: 'Automation runs and their step history', days: terms.logRetentionDays, note: 'From when the run finished (completed, failed or cancelled); a run still going is kept until it ends' },
    { data: 'Events sent with POST /events/send', days: terms.logRetentionDays, note: 'From each event, with its payload' },
    { data: 'Automation email records', days: AUTOMATION_EMAIL_RETENTION_DAYS, note: 'At every plan: which contact and topic an automation’s email was for, what its unsubscribe link reads; no address, no content' },
    { data: 'Automation versions', days: null, note: 'The current one, and each earlier one while a kept run names it; the others a day after they were replaced' },
    { data: 'Audit log', days: terms.auditRetentionDays, note: 'At every plan' },
  ];
}

import { ROLES, type Role } from './roles';

/**
 * Which roles a person may hold to call each procedure of the app router, declared once and
 * checked by one middleware (server/trpc/procedures.ts). API keys are not people: they keep their
 * permission checks and never meet this table. A procedure missing here is refused to every person,
 * and test/team-roles.test.ts fails until it is declared.
 */
const EVERYONE = ROLES;
/** Reads that show a secret (API keys are shown once at creation, webhook signing secrets): never billing or viewer. */
const BUILDERS = ['owner', 'admin', 'developer'] as const;
const AUDIENCE = ['owner', 'admin', 'marketer'] as const;
/** Templates and test sends are both developers' and marketers' work. */
const CONTENT = ['owner', 'admin', 'developer', 'marketer'] as const;
/** Plans and overage: the owner and the billing role; an admin may not. */
const BILLING = ['owner', 'billing'] as const;
const MANAGERS = ['owner', 'admin'] as const;
const OWNER = ['owner'] as const;

/** `public`: no sign-in needed (health); otherwise the roles that may call it. */
export type AccessRule = 'public' | readonly Role[];

export const DASHBOARD_ACCESS = {
  'health.live': 'public',
  'health.ready': 'public',

  'apiKeys.create': BUILDERS,
  'apiKeys.list': EVERYONE,
  'apiKeys.revoke': BUILDERS,
  'apiKeys.rename': BUILDERS,
  'apiKeys.smtpSettings': EVERYONE,

  'domains.create': BUILDERS,
  'domains.list': EVERYONE,
  'domains.get': EVERYONE,
  'domains.update': BUILDERS,
  'domains.delete': BUILDERS,
  'domains.domainConnect': BUILDERS,
  'domains.verify': BUILDERS,

  'emails.send': BUILDERS,
  'emails.preflight': BUILDERS,
  'emails.list': EVERYONE,
  'emails.get': EVERYONE,
  'emails.sentBy': EVERYONE,
  'emails.rawSource': EVERYONE,
  'emails.processingRecord': EVERYONE,
  'emails.reschedule': BUILDERS,
  'emails.cancel': BUILDERS,

  'organization.current': EVERYONE,
  'organization.memberships': EVERYONE,
  // It confirms the owner's own address.
  'organization.resendConfirmation': OWNER,
  'organization.changePlan': BILLING,
  // Organization settings (docs/organization-settings.md): naming it and where its notices go are
  // its administration; deleting it is the owner's alone; leaving is the person's own act.
  'organization.rename': MANAGERS,
  'organization.notificationAddress': EVERYONE,
  'organization.setNotificationAddress': MANAGERS,
  'organization.resendNotificationLink': MANAGERS,
  'organization.resetNotificationAddress': MANAGERS,
  'organization.leave': EVERYONE,
  'organization.requestDeletion': OWNER,
  'organization.cancelDeletion': OWNER,
  // The export holds contacts and the audit log: what the owner and admins read anyway.
  'organization.deletionExport': MANAGERS,
  'organization.planRequest': EVERYONE,
  'organization.paymentState': EVERYONE,
  'organization.withdrawPlanRequest': BILLING,

  'webhooks.create': BUILDERS,
  'webhooks.list': EVERYONE,
  'webhooks.get': EVERYONE,
  'webhooks.update': BUILDERS,
  'webhooks.delete': BUILDERS,
  'webhooks.secret': BUILDERS,
  'webhooks.rotateSecret': BUILDERS,
  'webhooks.rotateSigningSecret': BUILDERS,
  'webhooks.test': BUILDERS,
  'webhooks.deliveries': EVERYONE,
  'webhooks.delivery': EVERYONE,
  'webhooks.replay': BUILDERS,

  'audiences.create': AUDIENCE,
  'audiences.list': EVERYONE,
  'audiences.get': EVERYONE,
  'audiences.sunsetPreview': EVERYONE,
  'audiences.delete': AUDIENCE,
  'audiences.createContact': AUDIENCE,
  'audiences.listContacts': EVERYONE,
  'audiences.getContact': EVERYONE,
  'audiences.updateContact': AUDIENCE,
  'audiences.deleteContact': AUDIENCE,
  'audiences.batchContacts': AUDIENCE,

  'contactProperties.create': AUDIENCE,
  'contactProperties.list': EVERYONE,
  'contactProperties.get': EVERYONE,
  'contactProperties.update': AUDIENCE,
  'contactProperties.delete': AUDIENCE,

  'segments.create': AUDIENCE,
  'segments.list': EVERYONE,
  'segments.get': EVERYONE,
  'segments.update': AUDIENCE,
  'segments.delete': AUDIENCE,
  'segments.listContacts': EVERYONE,

  'contacts.create': AUDIENCE,
  'contacts.list': EVERYONE,
  'contacts.get': EVERYONE,
  'contacts.update': AUDIENCE,
  'contacts.delete': AUDIENCE,
  'contacts.listSegments': EVERYONE,
  'contacts.resendConfirmation': AUDIENCE,
  'contacts.addSegment': AUDIENCE,
  'contacts.removeSegment': AUDIENCE,
  // Starting one is the dashboard's upload (app/(dashboard)/contacts/imports/route.ts), held to contacts.create's rule.
  'contactImports.get': EVERYONE,
  'contactImports.list': EVERYONE,

  'topics.create': AUDIENCE,
  'topics.list': EVERYONE,
  'topics.get': EVERYONE,
  'topics.update': AUDIENCE,
  'topics.delete': AUDIENCE,
  'forms.create': AUDIENCE,
  'forms.list': EVERYONE,
  'forms.get': EVERYONE,
  'forms.update': AUDIENCE,
  'forms.delete': AUDIENCE,
  'forms.submissions': EVERYONE,
  // Automations send list mail and change contacts: the audience's work, as broadcasts are.
  'automations.create': AUDIENCE,
  'automations.list': EVERYONE,
  'automations.get': EVERYONE,
  'automations.update': AUDIENCE,
  'automations.delete': AUDIENCE,
  'automations.duplicate': AUDIENCE,
  'automations.stop': AUDIENCE,
  'automations.testRun': AUDIENCE,
  'automationRuns.list': EVERYONE,
  'automationRuns.get': EVERYONE,
  'automationRuns.figures': EVERYONE,
  // Declaring an event's name and schema, and sending one (which starts runs), are the automations' work.
  'customEvents.create': AUDIENCE,
  'customEvents.list': EVERYONE,
  'customEvents.get': EVERYONE,
  'customEvents.update': AUDIENCE,
  'customEvents.delete': AUDIENCE,
  'customEvents.send': AUDIENCE,
  'contactTopics.list': EVERYONE,
  'contactConsent.list': EVERYONE,
  'contactTopics.update': AUDIENCE,
  'audiences.batchDeleteContacts': AUDIENCE,

  'events.list': EVERYONE,

  'suppressions.list': EVERYONE,
  'suppressions.create': AUDIENCE,
  'suppressions.batch': AUDIENCE,
  'suppressions.get': EVERYONE,
  'suppressions.delete': AUDIENCE,

  'templates.create': CONTENT,
  'templates.duplicate': CONTENT,
  'templates.publish': CONTENT,
  'templates.list': EVERYONE,
  'templates.get': EVERYONE,
  'templates.preview': EVERYONE,
  'templates.previewContent': CONTENT,
  'templates.sendTest': CONTENT,
  'templates.update': CONTENT,
  'templates.delete': CONTENT,

  'usage.current': EVERYONE,
  'usage.setOverage': BILLING,
  'usage.quotePlanChange': EVERYONE,

  'billing.invoices': BILLING,
  'billing.portal': BILLING,

  'broadcasts.create': AUDIENCE,
  'broadcasts.duplicate': AUDIENCE,
  'broadcasts.list': EVERYONE,
  'broadcasts.get': EVERYONE,
  'broadcasts.preview': EVERYONE,
  'broadcasts.update': AUDIENCE,
  'broadcasts.delete': AUDIENCE,
  'broadcasts.send': AUDIENCE,
  'broadcasts.test': CONTENT,
  'broadcasts.cancel': AUDIENCE,
  'broadcasts.preflight': EVERYONE,

  'auditLog.list': MANAGERS,

  'overview.checklist': EVERYONE,
  'overview.activity': EVERYONE,

  'privacy.processingActivities': MANAGERS,
  // A data-subject request is the organization's act as controller: its owner or an admin.
  'privacy.recipientData': MANAGERS,
  'privacy.eraseRecipientData': MANAGERS,

  // A person's own account: their sessions and their own two-factor sign-in, whatever their role.
  'account.sessions': EVERYONE,
  'account.signOutSession': EVERYONE,
  'account.signOutOtherSessions': EVERYONE,
  'twoFactor.status': EVERYONE,
  // Requiring two-factor sign-in of everyone is the owner's rule (services/two-factor/roles.ts).
  'twoFactor.setRequirement': OWNER,

  'team.members': EVERYONE,
  'team.invitations': MANAGERS,
  'team.invite': MANAGERS,
  'team.resendInvitation': MANAGERS,
  'team.revokeInvitation': MANAGERS,
  'team.changeRole': MANAGERS,
  'team.remove': MANAGERS,
  'team.transferOwnership': OWNER,
  'team.describeInvitation': 'public',
  // Joining is the person's act, whatever their role where they stand now.
  'team.acceptInvitation': EVERYONE,
} as const satisfies Record<string, AccessRule>;

export type DashboardProcedure = keyof typeof DASHBOARD_ACCESS;

/** The rule of a procedure path, or undefined when none is declared (refused). */
export function accessRuleOf(path: string): AccessRule | undefined {
  return Object.hasOwn(DASHBOARD_ACCESS, path) ? DASHBOARD_ACCESS[path as DashboardProcedure] : undefined;
}

export function roleMayCall(role: Role, path: string): boolean {
  const rule = accessRuleOf(path);
  return rule === 'public' || (rule !== undefined && rule.includes(role));
}

import { router } from '../trpc/init';
import { accountRouter } from './account';
import { apiKeysRouter } from './api-keys';
import { audiencesRouter } from './audiences';
import { auditLogRouter } from './audit-log';
import { billingRouter } from './billing';
import { broadcastsRouter } from './broadcasts';
import { contactImportsRouter } from './contact-imports/router';
import { contactPropertiesRouter } from './contact-properties';
import { contactsRouter } from './contacts';
import { contactTopicsRouter } from './contact-topics';
import { contactConsentRouter } from './contact-consent';
import { domainsRouter } from './domains';
import { emailsRouter } from './emails/router';
import { eventsRouter } from './events';
import { healthRouter } from './health';
import { organizationRouter } from './organizations';
import { overviewRouter } from './overview';
import { privacyRouter } from './privacy';
import { segmentsRouter } from './segments';
import { suppressionsRouter } from './suppressions/router';
import { teamRouter } from './team';
import { topicsRouter } from './topics';
import { formsRouter } from './forms';
import { automationsRouter } from './automations';
import { automationRunsRouter } from './automation-runs';
import { customEventsRouter } from './custom-events';
import { templatesRouter } from './templates';
import { twoFactorRouter } from './two-factor';
import { usageRouter } from './usage';
import { webhooksRouter } from './webhooks';

/** One router for REST (through trpc-to-openapi) and for the dashboard's typed client. */
export const appRouter = router({
  health: healthRouter,
  apiKeys: apiKeysRouter,
  domains: domainsRouter,
  emails: emailsRouter,
  organization: organizationRouter,
  webhooks: webhooksRouter,
  audiences: audiencesRouter,
  contactProperties: contactPropertiesRouter,
  topics: topicsRouter,
  forms: formsRouter,
  automations: automationsRouter,
  automationRuns: automationRunsRouter,
  customEvents: customEventsRouter,
  contacts: contactsRouter,
  contactTopics: contactTopicsRouter,
  contactConsent: contactConsentRouter,
  contactImports: contactImportsRouter,
  segments: segmentsRouter,
  events: eventsRouter,
  suppressions: suppressionsRouter,
  templates: templatesRouter,
  usage: usageRouter,
  billing: billingRouter,
  broadcasts: broadcastsRouter,
  auditLog: auditLogRouter,
  overview: overviewRouter,
  privacy: privacyRouter,
  account: accountRouter,
  twoFactor: twoFactorRouter,
  team: teamRouter,
});

export type AppRouter = typeof appRouter;

import { z } from 'zod';
import { CONFIRMATION_LINK_DAYS, type DoubleOptInAsk } from '../services/double-opt-in';
import { idParam, jsonBoolean } from './shared';

// `double_opt_in` and `confirmation` of the two contact creates (POST /contacts and the spec's
// POST /audiences/{id}/contacts): one shape, one set of refusals (docs/consent.md, "Asking").

/** How a double opt-in confirmation is mailed (docs/consent.md). */
export const confirmationSender = z.strictObject({
  from: z.string().max(998).describe('The sender, `Name <address>` or the address, on one of your verified domains'),
  template_id: idParam
    .nullable()
    .optional()
    .describe('A published template showing {{ confirmation_url }} (and may use {{ email }}, {{ name }}, {{ organization }}, {{ expires_in_days }}); the built-in text when absent'),
});

/** The two body fields, described for where the segments and topics (or the audience) are joined. */
export const doubleOptInFields = (joins: string) => ({
  double_opt_in: jsonBoolean()
    .optional()
    .describe(
      `Double opt-in: the contact is pending (not subscribed) until it clicks the link mailed from \`confirmation.from\` (valid ${CONFIRMATION_LINK_DAYS} days); ${joins} joined then. A contact confirmed before is left subscribed`,
    ),
  confirmation: confirmationSender.optional().describe('With double_opt_in: how the confirmation is mailed'),
});

/** The two fields as the services take them (`doubleOptInOf` holds the rule that one needs the other). */
export const doubleOptInAskOf = (input: { double_opt_in?: boolean; confirmation?: { from: string; template_id?: string | null } }): DoubleOptInAsk => ({
  doubleOptIn: input.double_opt_in,
  confirmation: input.confirmation && { from: input.confirmation.from, templateId: input.confirmation.template_id },
});

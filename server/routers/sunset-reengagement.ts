import { z } from 'zod';
import type { ReengagementInput } from '../services/sunset/setting';
import { SUNSET_GRACE_DAYS_DEFAULT, SUNSET_GRACE_DAYS_MAX, SUNSET_GRACE_DAYS_MIN } from '../services/sunset/rule';

const graceRange = `must be a whole number of days from ${SUNSET_GRACE_DAYS_MIN} to ${SUNSET_GRACE_DAYS_MAX}`;
// A JSON number, nothing else (as sunset_after_months): inside a pipe the REST coercion cannot turn `true` into 1.
const graceDays = z
  .number({ message: graceRange })
  .pipe(z.number().int(graceRange).min(SUNSET_GRACE_DAYS_MIN, graceRange).max(SUNSET_GRACE_DAYS_MAX, graceRange))
  .meta({ type: 'integer', minimum: SUNSET_GRACE_DAYS_MIN, maximum: SUNSET_GRACE_DAYS_MAX });

/** The re-engagement email of a create or update (`null` turns it off); audiences and segments share it. */
export const sunsetReengagementInput = z
  .strictObject({
    template_id: z.uuid().describe('A published template of yours: the re-engagement email, rendered per member as a broadcast copy is'),
    from: z.string().min(1, 'must not be empty').max(320, 'must be at most 320 characters').describe('The sender, on one of your verified domains'),
    grace_days: graceDays.optional().describe(`Days a member has to open or click before it is set sunset (default ${SUNSET_GRACE_DAYS_DEFAULT})`),
  })
  .nullable()
  .optional()
  .describe('Beyond the spec: before a member is set sunset it is sent this email, and set sunset only if no person opens or clicks within grace_days; null: none (the default)');

export const sunsetReengagementOutput = z
  .object({
    templateId: z.uuid().nullable().describe('Null when the template was deleted: nothing is sent, and nobody unwarned is sunset, until another is chosen'),
    from: z.string(),
    graceDays: z.number().int(),
    error: z.string().nullable().describe('Why the last run could not send it (the plan, the domain, a limit, the template); null when it could'),
  })
  .nullable()
  .describe('The re-engagement email sent before sunset; null: none');

export type SunsetReengagementWire = z.infer<typeof sunsetReengagementInput>;

/** The wire's setting as the service takes it: undefined leaves it, null turns it off. */
export const reengagementOf = (wire: SunsetReengagementWire): ReengagementInput | null | undefined =>
  wire === undefined || wire === null ? wire : { templateId: wire.template_id.toLowerCase(), from: wire.from, graceDays: wire.grace_days };

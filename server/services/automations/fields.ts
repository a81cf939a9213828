import { z } from 'zod';
import { RESERVED_EVENT_PREFIXES } from '../../vocabulary/automations';
import { durationSeconds } from './duration';
import { AUTOMATION_LIMITS } from './limits';

// The small field schemas the step configs share.

const EVENT_NAME = /^[A-Za-z0-9][A-Za-z0-9._:-]*$/;

/** A string field whose absence reads "is required" rather than zod's words for a type mismatch. */
export const text = () => z.string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string') });

/** A name of the customer's own events (`user.created`): not one of this service's namespaces. */
export const customEventName = text()
  .min(1, 'must not be empty')
  .max(AUTOMATION_LIMITS.eventNameChars, `must be at most ${AUTOMATION_LIMITS.eventNameChars} characters`)
  .regex(EVENT_NAME, 'must start with a letter or digit and hold letters, digits and . _ : - only')
  .superRefine((name, ctx) => {
    const reserved = RESERVED_EVENT_PREFIXES.find((prefix) => name.toLowerCase().startsWith(prefix));
    if (reserved) ctx.addIssue({ code: 'custom', message: `"${name}": names starting with "${reserved}" are kept for this service's own events` });
  })
  .describe("The name of one of your own events (Resend's custom events), as POST /events/send will send it");

/** A duration as Resend writes one ("3 days", "1 hour"; also "30m", "2d"), between the bounds. */
export const durationText = (bounds: { shortestS: number; longestS: number; longest: string }) =>
  text()
    .max(50)
    .superRefine((value, ctx) => {
      const seconds = durationSeconds(value);
      if (seconds === null) ctx.addIssue({ code: 'custom', message: `"${value}" is not a duration such as "30 minutes", "12 hours" or "3 days"` });
      else if (seconds < bounds.shortestS) ctx.addIssue({ code: 'custom', message: 'must be at least a minute' });
      else if (seconds > bounds.longestS) ctx.addIssue({ code: 'custom', message: `must be at most ${bounds.longest}` });
    })
    .describe(`A duration: "30 minutes", "12 hours", "3 days", "1 week" (or "30m", "12h", "3d"), at most ${bounds.longest}`);

export const waitDuration = durationText({ shortestS: AUTOMATION_LIMITS.shortestWaitS, longestS: AUTOMATION_LIMITS.longestWaitS, longest: '30 days' });

/** A value taken from the run when the step runs: `{ "var": "contact.first_name" }` or `{ "var": "event.plan" }` (Resend's). */
export const variableRef = z.strictObject({
  var: z
    .string()
    .max(200)
    .regex(/^(?:contact|event)\.[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*$/, 'must be contact.<field or property key> or event.<payload field>'),
});

export const shortText = z.string().max(AUTOMATION_LIMITS.stringChars, `must be at most ${AUTOMATION_LIMITS.stringChars} characters`);

export const propertyKey = z.string().min(1).max(50);

export const uuidOf = (what: string) => z.uuid({ message: `must be the id of one of your ${what}` });

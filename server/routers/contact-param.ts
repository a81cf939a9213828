import { z } from 'zod';
import type { ContactTarget } from '../services/contacts/target';
import { isUuid } from '../ids';
import { decodePathParam } from '../trpc/path-params';

/**
 * A path parameter naming a contact: its id, or (Resend's way) its address URL-encoded
 * (`…/contacts/ada%40example.com`). Anything else is a 400 naming the parameter.
 */
export const contactParam =
  z
    .string()
    .meta({ description: "A contact id (UUID), or the contact's address URL-encoded (ada%40example.com)", anyOf: [{ format: 'uuid' }, { format: 'idn-email' }] })
    .transform((value, ctx): ContactTarget => {
      const text = decodePathParam(value);
      if (text === null) {
        ctx.addIssue({ code: 'custom', message: 'is not a valid URL-encoded value' });
        return z.NEVER;
      }
      if (isUuid(text)) return { id: text.toLowerCase() };
      if (text.includes('@')) return { email: text };
      ctx.addIssue({ code: 'custom', message: 'must be a contact id (UUID) or an email address' });
      return z.NEVER;
    });

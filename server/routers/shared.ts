import { z } from 'zod';

/** Path parameters arrive URL-encoded from trpc-to-openapi. */
const decoded = z.string().transform((value, ctx) => {
  try {
    return decodeURIComponent(value);
  } catch {
    ctx.addIssue({ code: 'custom', message: 'is not a valid URL-encoded value' });
    return z.NEVER;
  }
});

export const idParam = decoded.pipe(z.uuid({ message: 'must be a UUID' }));

export const messageResponse = z.object({ message: z.string() }).meta({ id: 'MessageResponse' });

export const isoDate = z.string().meta({ format: 'date-time' });

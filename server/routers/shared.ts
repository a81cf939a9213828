import { z } from 'zod';
import { decodePathParam } from '../trpc/path-params';
import { twoNamesProblem, type TwoNames } from '../services/shared/two-names';

/** Path parameters arrive URL-encoded from trpc-to-openapi; the document says what they decode to. */
export const decodedPathParam = (meta: { format: string; description?: string }) =>
  z
    .string()
    .meta(meta)
    .transform((value, ctx) => {
      const text = decodePathParam(value);
      if (text === null) {
        ctx.addIssue({ code: 'custom', message: 'is not a valid URL-encoded value' });
        return z.NEVER;
      }
      return text;
    });

const decoded = decodedPathParam({ format: 'uuid' });

export const idParam = decoded.pipe(z.uuid({ message: 'must be a UUID' }));

/**
 * A body boolean: JSON true or false, nothing else. trpc-to-openapi turns every plain z.boolean()
 * of an input into a coercing one (so the string "false" would read as true); inside a pipe it
 * cannot reach it, and the document still says `type: boolean`.
 */
export const jsonBoolean = () => z.boolean({ message: 'must be true or false' }).pipe(z.boolean());

/**
 * Text trimmed before it is read, which must then hold something. The document says so with a
 * pattern (a non-space character), so a client reading it can tell " " is refused; the check itself
 * stays one: trimmed, at least one character.
 */
export const nonBlank = (max: number, messages: { empty?: string; long?: string } = {}) =>
  z
    .string()
    .trim()
    .min(1, messages.empty ?? 'must not be empty')
    .max(max, messages.long ?? `must be at most ${max} characters`)
    .meta({ pattern: '\\S' });

export const messageResponse = z.object({ message: z.string() }).meta({ id: 'MessageResponse' });

export const isoDate = z.string().meta({ format: 'date-time' });

/** `limit` and `cursor` of a cursor-paginated list, with the bounds the spec gives each list. */
export const pageQuery = (bounds: { max: number; default: number }) => ({
  limit: z.coerce
    .number({ message: 'must be a number' })
    .int('must be a whole number')
    .min(1, `must be between 1 and ${bounds.max}`)
    .max(bounds.max, `must be between 1 and ${bounds.max}`)
    .default(bounds.default),
  cursor: z.uuid({ message: 'must be the next_cursor of a previous page' }).max(36).optional(),
});

/** A refinement of a body that must give a field under one of its two names (server/services/shared/two-names.ts). */
export const underOneName =
  (names: TwoNames) =>
  (input: Record<string, unknown>, ctx: z.RefinementCtx): void => {
    const problem = twoNamesProblem(names, { name: input[names.name], alias: input[names.alias] }, { required: true });
    if (problem) ctx.addIssue({ code: 'custom', path: [problem.path], message: problem.message });
  };

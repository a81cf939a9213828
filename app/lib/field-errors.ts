import { describeError } from './errors';

/**
 * A validation error split by the fields of a form. The server names the field it refuses at the
 * start of each problem ("url: …; events: …", see server/trpc/envelope.ts), so each one can be
 * shown under its field; whatever names none of `fields` is left in `other` for an alert.
 */
export function fieldErrors<Field extends string>(error: unknown, fields: readonly Field[]): { byField: Partial<Record<Field, string>>; other: unknown } {
  if (!error) return { byField: {}, other: null };
  const { code, message } = describeError(error);
  if (code !== 'VALIDATION_ERROR') return { byField: {}, other: error };
  // A problem starts at the beginning or after "; " with a known name, or a path under it ("events.3").
  const start = new RegExp(`(?:^|; )(${fields.join('|')})(?:\\.[\\w.]+)?: `, 'g');
  const starts = [...message.matchAll(start)];
  if (starts.length === 0 || starts[0]!.index !== 0) return { byField: {}, other: error };
  const byField: Partial<Record<Field, string>> = {};
  starts.forEach((match, index) => {
    const field = match[1] as Field;
    const end = starts[index + 1]?.index ?? message.length;
    const text = message.slice(match.index + match[0].length, end);
    byField[field] = byField[field] ? `${byField[field]}; ${text}` : text;
  });
  return { byField, other: null };
}

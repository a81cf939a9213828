import { validationError } from '../../errors';
import type { PartName } from './parts';

/**
 * Resend's placeholders beside Liquid (docs/templates.md): `{{{NAME}}}` prints a variable and
 * `{{{NAME|fallback}}}` prints the fallback when the variable is not given. Each is rewritten into
 * the Liquid output it means before the part is parsed (`{{ NAME }}`, `{{ NAME | fallback: "…" }}`),
 * on the same line, so a parse error still names the right line, and every Liquid rule (escaping in
 * the HTML part, the sandbox, the bounds) applies to it as to any output.
 *
 * A name is a variable (`PRODUCT`) or a property of one (`contact.first_name`); the fallback is
 * the text up to `}}}`, trimmed, on one line and without braces.
 */
const PLACEHOLDER = /\{\{\{\s*([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_-]*)*)\s*(?:\|([^{}\r\n]*))?\}\}\}/g;

/** A part rewritten into Liquid, and the root names its Resend placeholders read without a fallback. */
export interface FromResendSyntax {
  liquid: string;
  /** Read as `{{{NAME}}}`: a send must give them, unless a declared variable has a fallback (Resend's rule). */
  required: string[];
}

/** A Liquid string literal: LiquidJS reads backslash escapes inside quotes. */
const quoted = (text: string) => `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;

export function fromResendSyntax(part: PartName, source: string): FromResendSyntax {
  if (!source.includes('{{{')) return { liquid: source, required: [] };
  const required = new Set<string>();
  const liquid = source.replace(PLACEHOLDER, (_match, name: string, fallback: string | undefined) => {
    if (fallback === undefined) {
      required.add(name.split('.')[0]!);
      return `{{ ${name} }}`;
    }
    return `{{ ${name} | fallback: ${quoted(fallback.trim())} }}`;
  });
  const left = liquid.indexOf('{{{');
  if (left !== -1) {
    const line = liquid.slice(0, left).split('\n').length;
    throw validationError(`${part}: line ${line}: {{{ must name a variable, as {{{NAME}}} or {{{NAME|fallback}}} (a fallback on one line, without braces)`);
  }
  return { liquid, required: [...required] };
}

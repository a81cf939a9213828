import type { Liquid, Template } from 'liquidjs';
import { validationError } from '../../errors';
import { renderBounded } from './bounded';
import { missingForSend, withDeclared } from './declared';
import { htmlEngine, plainEngine } from './engine';
import { liquidProblem, type ParsedTemplate } from './parse';
import type { PartName } from './parts';

/** A template rendered with variables. */
export interface RenderedTemplate {
  subject: string;
  html: string | null;
  text: string | null;
  /** Variables the template needs (read at least once without a default) that were not given: they rendered empty. */
  missingVariables: string[];
  /** Every variable the template reads (what a save would list): content being written has no saved list. */
  variables: string[];
}

/** Variables as a send or a preview gives them: a JSON object, its keys the template's variable names. */
export type TemplateVariables = Record<string, unknown>;

function renderPart(part: PartName, templates: Template[], engine: Liquid, variables: TemplateVariables): string {
  try {
    // A copy for each part: `increment` and `decrement` write into the scope they are given.
    return renderBounded(engine, part, templates, { ...variables });
  } catch (error) {
    throw liquidProblem(part, error);
  }
}

/**
 * How a render treats what is missing: a preview renders it empty and lists it; a send refuses
 * what Resend's rules require (declared without a fallback, or read as `{{{NAME}}}`), naming
 * `field`, the request's name for its variables (`variables`, or `template.variables`).
 */
export type RenderMode = { send: false } | { send: true; field: string };

export const PREVIEW: RenderMode = { send: false };

/**
 * Renders every part: HTML-escaped outputs in the HTML part, plain ones in the subject and text.
 * Declared variables are checked against their types and fall back when not given (a 400 naming
 * the variable). A render that fails (a limit reached, a filter refusing its input) is a 400
 * naming the part. `onPart` hears which part is about to render (the pool names it should the
 * render be killed). Runs in the render pool's workers (render-worker.ts), never on the API's
 * event loop.
 */
export function renderTemplate(template: ParsedTemplate, variables: TemplateVariables, onPart: (part: PartName) => void = () => {}, mode: RenderMode = PREVIEW): RenderedTemplate {
  const { parts } = template;
  const values = withDeclared(template.declared, variables, mode.send ? mode.field : 'variables');
  const missing = missingForSend(template.declared, template.strict, values);
  if (mode.send && missing.length > 0) {
    throw validationError(`${mode.field}: missing ${missing.join(', ')}: the template needs ${missing.length === 1 ? 'it' : 'them'} (read as {{{NAME}}}, or declared, without a fallback)`);
  }
  const given = (name: string) => Object.hasOwn(values, name) && values[name] !== null && values[name] !== undefined;
  const render = (part: PartName, templates: Template[], engine: Liquid) => {
    onPart(part);
    return renderPart(part, templates, engine, values);
  };
  const lacking = template.variables.filter((name) => template.required.has(name) && !given(name));
  return {
    subject: render('subject', parts.subject, plainEngine),
    html: parts.html ? render('html', parts.html, htmlEngine) : null,
    text: parts.text ? render('text', parts.text, plainEngine) : null,
    missingVariables: [...new Set([...lacking, ...missing])],
    variables: template.variables,
  };
}

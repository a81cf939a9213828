import type { Liquid, Template } from 'liquidjs';
import { htmlEngine, plainEngine } from './engine';
import { liquidProblem, type ParsedTemplate, type PartName } from './parse';

/** A template rendered with variables. */
export interface RenderedTemplate {
  subject: string;
  html: string | null;
  text: string | null;
  /** Variables the template needs (read at least once without a default) that were not given: they rendered empty. */
  missingVariables: string[];
}

/** Variables as a send or a preview gives them: a JSON object, its keys the template's variable names. */
export type TemplateVariables = Record<string, unknown>;

function renderPart(part: PartName, templates: Template[], engine: Liquid, variables: TemplateVariables): string {
  try {
    // A copy for each part: `increment` and `decrement` write into the scope they are given.
    return String(engine.renderSync(templates, { ...variables }));
  } catch (error) {
    throw liquidProblem(part, error);
  }
}

/**
 * Renders every part: HTML-escaped outputs in the HTML part, plain ones in the subject and text.
 * A render that fails (a limit reached, a filter refusing its input) is a 400 naming the part.
 */
export function renderTemplate(template: ParsedTemplate, variables: TemplateVariables): RenderedTemplate {
  const { parts } = template;
  const given = (name: string) => Object.hasOwn(variables, name) && variables[name] !== null && variables[name] !== undefined;
  return {
    subject: renderPart('subject', parts.subject, plainEngine, variables),
    html: parts.html ? renderPart('html', parts.html, htmlEngine, variables) : null,
    text: parts.text ? renderPart('text', parts.text, plainEngine, variables) : null,
    missingVariables: template.variables.filter((name) => template.required.has(name) && !given(name)),
  };
}

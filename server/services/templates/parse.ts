import { analyzeSync, LiquidError, toValueSync, TypeGuards, Value, type Liquid, type Template } from 'liquidjs';
import type { DeclaredVariable } from '@/db/schema';
import { AppError, validationError } from '../../errors';
import { RenderBoundError } from './bounded';
import { htmlEngine, plainEngine } from './engine';
import { TEMPLATE_LIMITS } from './limits';
import type { PartName } from './parts';
import { fromResendSyntax } from './resend-syntax';

export type { PartName } from './parts';

/** What a template is made of, as stored. */
export interface TemplateSource {
  subject: string;
  html: string | null;
  text: string | null;
  /** Variables declared with a type and fallback (Resend's); none when absent. */
  declaredVariables?: DeclaredVariable[];
}

/** A template parsed once, ready to render any number of times. */
export interface ParsedTemplate {
  parts: { subject: Template[]; html: Template[] | null; text: Template[] | null };
  /** The root names of the variables its parts read, in order of first appearance (subject, html, text). */
  variables: string[];
  /** Of those, the ones read at least once without a `default`: a missing one renders empty. */
  required: ReadonlySet<string>;
  /** Read as Resend's `{{{NAME}}}`, without a fallback: a send must give them unless a declared fallback does (render.ts). */
  strict: ReadonlySet<string>;
  declared: DeclaredVariable[];
  /** Characters of source: what it weighs in the cache. */
  size: number;
}

const MARKUP = /\{\{|\{%/g;
const POSITION_SUFFIX = /, line:\d+, col:\d+$/;

/** A LiquidJS error as a 400 naming the part and the line: `html: line 3: tag {% if x %} not closed`. */
export function liquidProblem(part: PartName, error: unknown): AppError {
  if (!(error instanceof Error)) return validationError(`${part}: cannot be rendered`);
  const cause = LiquidError.is(error) ? error.originalError : undefined;
  if (error instanceof RenderBoundError) return validationError(error.message);
  if (cause instanceof RenderBoundError) return validationError(cause.message);
  if (error instanceof RangeError || cause instanceof RangeError) return validationError(`${part}: renders too large`);
  const message = (cause?.message ?? error.message).replace(POSITION_SUFFIX, '');
  const line = LiquidError.is(error) ? error.token?.getPosition()[0] : undefined;
  return validationError(line ? `${part}: line ${line}: ${message}` : `${part}: ${message}`);
}

/** A part parsed, Resend's placeholders read as the Liquid they mean; `strict` collects the names they read without a fallback. */
function parsePart(part: PartName, written: string, engine: Liquid, strict: Set<string>): Template[] {
  const { liquid: source, required } = fromResendSyntax(part, written);
  for (const name of required) strict.add(name);
  const markups = source.match(MARKUP)?.length ?? 0;
  if (markups > TEMPLATE_LIMITS.markupsPerPart) {
    throw validationError(`${part}: at most ${TEMPLATE_LIMITS.markupsPerPart} Liquid tags and outputs ({{ }} and {% %}), found ${markups}`);
  }
  try {
    return engine.parse(source);
  } catch (error) {
    throw liquidProblem(part, error);
  }
}

const positionOf = (location: { row: number; col: number }) => `${location.row}:${location.col}`;

/**
 * Where a variable is read with a default (`{{ name | default: "there" }}`, or Resend's
 * `{{{name|there}}}`): the positions of the variables that a value starts with and that a
 * `default` or `fallback` filter follows.
 */
function defaultedPositions(templates: Template[], found = new Set<string>()): Set<string> {
  for (const template of templates) {
    for (const argument of template.arguments?.() ?? []) {
      if (!(argument instanceof Value) || !argument.filters.some((filter) => filter.name === 'default' || filter.name === 'fallback')) continue;
      const [first, ...rest] = argument.initial.postfix;
      if (rest.length === 0 && TypeGuards.isPropertyAccessToken(first)) {
        const [row, col] = first.getPosition();
        found.add(positionOf({ row: row!, col: col! }));
      }
    }
    if (template.children) defaultedPositions(toValueSync(template.children(false, true)), found);
  }
  return found;
}

/**
 * Parses each part (a syntax error, a refused tag or an unknown filter is a 400 naming the part
 * and line) and finds the variables the parts read: names assigned inside the template are not
 * variables; a name read only with a default is not required.
 */
export function parseTemplate(source: TemplateSource): ParsedTemplate {
  const strict = new Set<string>();
  const parts: ParsedTemplate['parts'] = {
    subject: parsePart('subject', source.subject, plainEngine, strict),
    html: source.html === null ? null : parsePart('html', source.html, htmlEngine, strict),
    text: source.text === null ? null : parsePart('text', source.text, plainEngine, strict),
  };
  const variables = new Set<string>();
  const required = new Set<string>();
  for (const templates of Object.values(parts)) {
    if (!templates) continue;
    const defaulted = defaultedPositions(templates);
    for (const [name, uses] of Object.entries(analyzeSync(templates, { partials: false }).globals)) {
      variables.add(name);
      if (uses.some((use) => !defaulted.has(positionOf(use.location)))) required.add(name);
    }
  }
  return {
    parts,
    variables: [...variables],
    required,
    // A name the template assigns itself is no variable, whatever reads it.
    strict: new Set([...strict].filter((name) => variables.has(name))),
    declared: source.declaredVariables ?? [],
    size: source.subject.length + (source.html?.length ?? 0) + (source.text?.length ?? 0),
  };
}

import { Liquid, Tag, type FS, type TagToken, type TopLevelToken } from 'liquidjs';
import { BoundedCapture, boundedFilter } from './bounded';
import { TEMPLATE_LIMITS } from './limits';

/**
 * The LiquidJS engines templates are parsed and rendered with, sandboxed (docs/templates.md):
 *
 * - nothing is read from disk: the tags that load other templates are refused at parse time, and
 *   the engine's file system is one that holds no file;
 * - no loop: the loop tags are refused at parse time, so rendering takes time in proportion to
 *   the template and its variables; LiquidJS's render time and memory limits are a backstop;
 * - only the variables' own properties are read (`ownPropertyOnly`): `{{ constructor }}` and
 *   `{{ a.__proto__ }}` are nothing;
 * - an unknown filter is a syntax error (`strictFilters`), a missing variable renders empty;
 * - what a render prints, captures and gets from filters is bounded as it grows (bounded.ts).
 *
 * Two engines, as escaping is fixed when a part is parsed: the HTML part's outputs are
 * HTML-escaped (`outputEscape: 'escape'`, `| raw` opts out), the subject's and text's are not.
 */

/** Tags a template may not use, and why: said at parse time with the line. */
export const REFUSED_TAGS: Record<string, string> = {
  include: 'templates cannot read other templates',
  render: 'templates cannot read other templates',
  layout: 'templates cannot read other templates',
  block: 'templates cannot read other templates (blocks belong to layouts)',
  for: 'loops are not allowed in templates',
  tablerow: 'loops are not allowed in templates',
  cycle: 'loops are not allowed in templates',
  break: 'loops are not allowed in templates',
  continue: 'loops are not allowed in templates',
  liquid: 'write each tag in its own {% %}',
};

function refusedTag(name: string, reason: string) {
  return class RefusedTag extends Tag {
    constructor(token: TagToken, remainTokens: TopLevelToken[], liquid: Liquid) {
      super(token, remainTokens, liquid);
      throw new Error(`the ${name} tag is not allowed: ${reason}`);
    }
    render(): void {}
  };
}

const nothing = (path: string): never => {
  throw new Error(`no file: ${path}`);
};

/** A file system with no file in it, should any lookup get past the refused tags. */
const noFiles: FS = {
  exists: async () => false,
  existsSync: () => false,
  readFile: async (path) => nothing(path),
  readFileSync: nothing,
  resolve: (_dir, file) => file,
  contains: async () => false,
  containsSync: () => false,
  sep: '/',
  dirname: () => '',
};

function engine(escapeHtml: boolean): Liquid {
  const liquid = new Liquid({
    fs: noFiles,
    root: [],
    partials: [],
    layouts: [],
    relativeReference: false,
    templates: {},
    cache: false,
    ownPropertyOnly: true,
    strictFilters: true,
    strictVariables: false,
    jsTruthy: false,
    timezoneOffset: 0,
    outputEscape: escapeHtml ? 'escape' : undefined,
    parseLimit: TEMPLATE_LIMITS.bodyBytes,
    renderLimit: TEMPLATE_LIMITS.renderMs,
    memoryLimit: TEMPLATE_LIMITS.renderMemory,
  });
  for (const [name, reason] of Object.entries(REFUSED_TAGS)) liquid.registerTag(name, refusedTag(name, reason));
  liquid.registerTag('capture', BoundedCapture);
  // Resend's `{{{NAME|fallback}}}` (resend-syntax.ts): the fallback only when the variable is not
  // given, where `default` also replaces an empty string and false.
  liquid.registerFilter('fallback', (value: unknown, fallback: unknown) => (value === undefined || value === null ? fallback : value));
  for (const [name, filter] of Object.entries(liquid.filters)) liquid.registerFilter(name, boundedFilter(filter));
  return liquid;
}

/** For the HTML part: every output HTML-escaped. */
export const htmlEngine = engine(true);
/** For the subject and the text part: outputs as they are. */
export const plainEngine = engine(false);

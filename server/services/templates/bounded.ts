import { CaptureTag, Context, toValue, toValueSync, type Emitter, type FilterImplOptions, type Liquid, type Template } from 'liquidjs';
import { TEMPLATE_LIMITS } from './limits';
import type { PartName } from './parts';

/**
 * Rendering one part within bounds of size that are checked as the strings grow, not after:
 *
 * - what the part prints is bounded as it is written (`outputChars`: an email's subject bound for
 *   the subject, its body bound for html and text);
 * - everything the render produces on the way is counted against one budget (`producedChars`):
 *   what is printed, what each `capture` collects, and every string a filter returns (`append`,
 *   `url_encode`, `escape`, `replace`, …: so `assign` too, whose new strings come from filters).
 *
 * LiquidJS's own memoryLimit sees neither captures nor most filters, and its renderLimit is only
 * checked between nodes: a template that doubles a string in a capture 23 times would pass both.
 * Past a bound the render stops with a RenderBoundError, said as a 400 naming the part.
 */

/** Why a render was stopped, its message ready for the client (it names the part). */
export class RenderBoundError extends Error {}

class Budget {
  private produced = 0;
  constructor(private readonly part: PartName) {}
  charge(chars: number): void {
    this.produced += chars;
    if (this.produced > TEMPLATE_LIMITS.producedChars) {
      throw new RenderBoundError(`${this.part}: renders too large: its outputs, captures and filter results pass ${TEMPLATE_LIMITS.producedChars} characters`);
    }
  }
}

/** The budget of each render in progress, by its LiquidJS context (one per part rendered). */
const budgets = new WeakMap<Context, Budget>();

/** As LiquidJS's own emitter writes a value. */
function stringify(value: unknown): string {
  const plain = toValue(value);
  if (typeof plain === 'string') return plain;
  if (plain === null || plain === undefined) return '';
  if (Array.isArray(plain)) return plain.map(stringify).join('');
  return String(plain);
}

class BoundedEmitter implements Emitter {
  buffer = '';
  constructor(
    private readonly budget: Budget | undefined,
    private readonly bound: { chars: number; message: string } | null,
  ) {}
  write(html: unknown): void {
    const text = stringify(html);
    this.budget?.charge(text.length);
    if (this.bound && this.buffer.length + text.length > this.bound.chars) throw new RenderBoundError(this.bound.message);
    this.buffer += text;
  }
}

/** `capture` collecting into a bounded emitter: what it collects counts against the budget as it grows. */
export class BoundedCapture extends CaptureTag {
  override *render(ctx: Context): Generator<unknown, void, string> {
    const html = yield this.liquid.renderer.renderTemplates(this.templates, ctx, new BoundedEmitter(budgets.get(ctx), null));
    ctx.bottom()[this.variable] = html;
  }
}

/** A filter whose string results count against the budget of the render it runs in. */
export function boundedFilter(filter: FilterImplOptions): FilterImplOptions {
  const handler = typeof filter === 'function' ? filter : filter.handler;
  const bounded: typeof handler = function (this, ...args) {
    const result: unknown = handler.apply(this, args as [unknown, ...unknown[]]);
    if (typeof result === 'string') budgets.get(this.context)?.charge(result.length);
    return result;
  };
  return typeof filter === 'function' ? bounded : { ...filter, handler: bounded };
}

/** The bound on what a part prints, and how its refusal reads. */
function outputBound(part: PartName): { chars: number; message: string } {
  if (part === 'subject') return { chars: TEMPLATE_LIMITS.subjectChars, message: `subject: renders longer than ${TEMPLATE_LIMITS.subjectChars} characters` };
  return { chars: TEMPLATE_LIMITS.bodyBytes, message: `${part}: renders to more than ${TEMPLATE_LIMITS.bodyBytes} characters` };
}

/** Renders one part with its bounds; throws what LiquidJS throws (a RenderBoundError inside). */
export function renderBounded(engine: Liquid, part: PartName, templates: Template[], scope: object): string {
  const ctx = new Context(scope, engine.options, { sync: true }, { liquid: engine });
  const budget = new Budget(part);
  budgets.set(ctx, budget);
  return toValueSync(engine.renderer.renderTemplates(templates, ctx, new BoundedEmitter(budget, outputBound(part)))) as string;
}

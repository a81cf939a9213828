import { Piscina } from 'piscina';
import { AppError, validationError } from '../../errors';
import type { TemplateSource } from './parse';
import { PARTS } from './parts';
import type { RenderedTemplate, RenderMode, TemplateVariables } from './render';
import type { RenderAnswer, RenderTask, TemplateVersion } from './render-worker';

/**
 * Every template render runs here, in a small pool of worker threads (piscina), never on the
 * API's event loop: a render that takes long holds a worker, not /api/health, and one that grows
 * dies in the worker's own bounded heap, not in the process. docs/templates.md ("Rendering").
 */
export const RENDER_POOL = {
  /** Worker threads: renders of one process at once. */
  threads: 2,
  /** Tasks waiting for a thread; past it a render is refused with 503 rather than queued without end. */
  maxQueue: 256,
  /** The worker's heap (MiB): bodies of 5 MiB, their captures and filter results, and its parse cache fit. */
  maxOldGenerationSizeMb: 128,
  maxYoungGenerationSizeMb: 16,
  stackSizeMb: 4,
  /** A task's hard stop, counted from when a worker starts it: one render's time… */
  renderMs: 1_000,
  /** …plus this per further render of the same task (a batch's items, a broadcast chunk's contacts). */
  perRenderMs: 20,
  /** Characters of source and variables per task; a batch or chunk beyond it is split into several tasks. */
  taskChars: 4 * 1024 * 1024,
  /** Renders per task at most. */
  taskRenders: 500,
  /** Deaths of the tasks of one call (renders killed by the hard stop or the heap bound) before its renders left are refused. */
  deathsPerTask: 3,
  /** An idle thread ends after this; the next render starts one again. */
  idleMs: 60_000,
} as const;

const NOT_STARTED = -1;

/** Atomics.waitAsync (Node 16+), not in the TypeScript lib this project targets. */
const waitAsync = (Atomics as unknown as { waitAsync(array: Int32Array, index: number, value: number): { async: boolean; value: Promise<string> | string } }).waitAsync;

/** A template to render: a stored version (parsed once per worker), or content parsed afresh (a preview of unsaved content). */
export interface RenderJob {
  template: { id: string; updatedAt: Date } | null;
  source: TemplateSource;
  /** A send refuses what Resend's rules require and a preview lists it; a preview by default. */
  mode?: RenderMode;
}

/** Per set of variables: the rendered parts, or the 400 naming the part that could not be rendered. */
export type RenderOutcome = RenderedTemplate | AppError;

export interface TemplateRenderer {
  /** Renders the template once per set of variables, in as few tasks as its size allows. */
  render(job: RenderJob, variables: TemplateVariables[]): Promise<RenderOutcome[]>;
  /** Ends the threads (a render in flight is cut off). */
  close(): Promise<void>;
}

/**
 * The worker's file beside this module: from TypeScript the one that registers tsx first; in the
 * built server the bundle's own entry. A name in a variable, so no bundler takes it for an asset.
 */
function workerFile(): string {
  const name = import.meta.url.endsWith('.ts') ? 'render-worker-dev.mjs' : 'render-worker.mjs';
  return new URL(name, import.meta.url).href;
}

const sourceChars = (source: TemplateSource) => source.subject.length + (source.html?.length ?? 0) + (source.text?.length ?? 0);

/** Consecutive runs of renders that each fit one task. */
function tasksOf(source: TemplateSource, variables: TemplateVariables[]): TemplateVariables[][] {
  const base = sourceChars(source);
  const tasks: TemplateVariables[][] = [];
  let current: TemplateVariables[] = [];
  let chars = 0;
  for (const set of variables) {
    const weight = base + JSON.stringify(set).length;
    if (current.length > 0 && (chars + weight > RENDER_POOL.taskChars || current.length >= RENDER_POOL.taskRenders)) {
      tasks.push(current);
      current = [];
      chars = 0;
    }
    current.push(set);
    chars += weight;
  }
  if (current.length > 0) tasks.push(current);
  return tasks;
}

const busy = () => new AppError('SERVICE_UNAVAILABLE', 'Too many templates are being rendered right now; try again shortly', { 'Retry-After': '1' });

const isOutOfMemory = (error: unknown) => (error as { code?: string } | null)?.code === 'ERR_WORKER_OUT_OF_MEMORY';
const isAbort = (error: unknown) => (error as { name?: string } | null)?.name === 'AbortError';

/** The pool of one process. Threads start with the first render. */
export function createTemplateRenderer(): TemplateRenderer {
  let pool: Piscina | null = null;
  const poolNow = () =>
    (pool ??= new Piscina({
      filename: workerFile(),
      minThreads: 1,
      maxThreads: RENDER_POOL.threads,
      maxQueue: RENDER_POOL.maxQueue,
      idleTimeout: RENDER_POOL.idleMs,
      resourceLimits: {
        maxOldGenerationSizeMb: RENDER_POOL.maxOldGenerationSizeMb,
        maxYoungGenerationSizeMb: RENDER_POOL.maxYoungGenerationSizeMb,
        stackSizeMb: RENDER_POOL.stackSizeMb,
      },
    }));

  /** One task; when its worker dies (the hard stop, or out of memory), why, and which render was in progress. */
  async function runTask(template: TemplateVersion, source: TemplateSource, mode: RenderMode, variables: TemplateVariables[]): Promise<RenderAnswer[] | { died: string; at: number }> {
    const progress = new Int32Array(new SharedArrayBuffer(8));
    progress[0] = NOT_STARTED;
    const controller = new AbortController();
    const limitMs = RENDER_POOL.renderMs + RENDER_POOL.perRenderMs * (variables.length - 1);
    let timer: NodeJS.Timeout | undefined;
    let done = false;
    const startClock = () => {
      if (!done) timer = setTimeout(() => controller.abort(), limitMs);
    };
    // The hard stop counts from when a worker takes the task: a wait in the queue is not the render's.
    const started = waitAsync(progress, 0, NOT_STARTED);
    if (started.async) void (started.value as Promise<string>).then(startClock);
    else startClock();
    const task: RenderTask = { template, source, variables, mode, progress };
    try {
      return (await poolNow().run(task, { signal: controller.signal })) as RenderAnswer[];
    } catch (error) {
      if ((error as Error | null)?.message === 'Task queue is at limit') throw busy();
      const part = PARTS[Atomics.load(progress, 0)] ?? 'subject';
      const at = Math.min(Atomics.load(progress, 1), variables.length - 1);
      if (isAbort(error) && controller.signal.aborted) return { died: `${part}: renders too slowly: stopped after ${limitMs} ms`, at };
      if (isOutOfMemory(error)) return { died: `${part}: renders too large: the renderer ran out of its ${RENDER_POOL.maxOldGenerationSizeMb} MiB`, at };
      throw error;
    } finally {
      done = true;
      clearTimeout(timer);
      // Wakes the waiter of a task that never started (refused by a full queue), so nothing is left pending.
      Atomics.store(progress, 0, 0);
      Atomics.notify(progress, 0);
    }
  }

  /**
   * The renders of one task's worth. When the task dies, the render in progress is refused with
   * why, and the others run again in one task; after RENDER_POOL.deathsPerTask deaths the template
   * has shown what it does, and the renders left are refused with the last reason.
   */
  async function renderAll(template: TemplateVersion, source: TemplateSource, mode: RenderMode, sets: TemplateVariables[]): Promise<RenderAnswer[]> {
    const answers = new Array<RenderAnswer | undefined>(sets.length);
    let pending = sets.map((_, index) => index);
    for (let deaths = 0; pending.length > 0; deaths += 1) {
      const answer = await runTask(template, source, mode, pending.map((index) => sets[index]!));
      if (!('died' in answer)) {
        pending.forEach((index, i) => (answers[index] = answer[i]!));
        break;
      }
      if (deaths + 1 >= RENDER_POOL.deathsPerTask) {
        for (const index of pending) answers[index] = { refused: answer.died };
        break;
      }
      answers[pending[answer.at]!] = { refused: answer.died };
      pending = pending.filter((_, i) => i !== answer.at);
    }
    return answers as RenderAnswer[];
  }

  return {
    async render(job, variables) {
      if (variables.length === 0) return [];
      const template = job.template ? { id: job.template.id, version: job.template.updatedAt.getTime() } : null;
      const tasks = tasksOf(job.source, variables);
      const answers = await Promise.all(tasks.map((sets) => renderAll(template, job.source, job.mode ?? { send: false }, sets)));
      return answers.flat().map((answer) => ('rendered' in answer ? answer.rendered : validationError(answer.refused)));
    },
    async close() {
      const closing = pool;
      pool = null;
      await closing?.destroy();
    },
  };
}

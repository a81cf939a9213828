import { AppError } from '../../errors';
import { parsedTemplate } from './cache';
import { parseTemplate, type ParsedTemplate, type TemplateSource } from './parse';
import { PARTS, type PartName } from './parts';
import { renderTemplate, type RenderedTemplate, type RenderMode, type TemplateVariables } from './render';

/**
 * The render pool's worker (render-pool.ts): one task is one template rendered with one or more
 * sets of variables. It runs in a worker thread with its own heap bound, so a render that grows
 * or loops past every other bound dies here, not in the API's process.
 */

/** A version of a stored template (its id and `updatedAt` in ms), parsed once per worker; null for content parsed afresh. */
export type TemplateVersion = { id: string; version: number } | null;

export interface RenderTask {
  template: TemplateVersion;
  source: TemplateSource;
  variables: TemplateVariables[];
  /** A send's (Resend's required variables refused) or a preview's. */
  mode: RenderMode;
  /**
   * Shared with the pool: [0] is STARTED… once the task runs (the pool's time limit starts then,
   * not while it waits in the queue), then the index in PARTS of the part rendering; [1] the
   * render (index in `variables`) in progress.
   */
  progress: Int32Array;
}

/** Per set of variables: what it rendered to, or the 400's message saying why not (it names the part). */
export type RenderAnswer = { rendered: RenderedTemplate } | { refused: string };

/** progress[0] before the task runs. */
export const NOT_STARTED = -1;

function parsed(task: RenderTask): ParsedTemplate {
  const { template, source } = task;
  return template ? parsedTemplate({ id: template.id, updatedAt: new Date(template.version), ...source }) : parseTemplate(source);
}

export default function renderTask(task: RenderTask): RenderAnswer[] {
  const { progress } = task;
  Atomics.store(progress, 0, 0);
  Atomics.notify(progress, 0);
  let template: ParsedTemplate;
  try {
    template = parsed(task);
  } catch (error) {
    if (error instanceof AppError) return task.variables.map(() => ({ refused: error.message }));
    throw error;
  }
  const onPart = (part: PartName) => Atomics.store(progress, 0, PARTS.indexOf(part));
  const render = (variables: TemplateVariables, index: number): RenderAnswer => {
    Atomics.store(progress, 1, index);
    try {
      return { rendered: renderTemplate(template, variables, onPart, task.mode) };
    } catch (error) {
      if (error instanceof AppError) return { refused: error.message };
      throw error;
    }
  };
  // A template that reads and declares no variable renders the same for every set of them: once.
  if (template.variables.length === 0 && template.declared.length === 0 && task.variables.length > 0) {
    const answer = render(task.variables[0]!, 0);
    return task.variables.map(() => answer);
  }
  return task.variables.map(render);
}

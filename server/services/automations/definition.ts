import type { AutomationDefinition, StoredStep } from '@/db/schema';
import type { ConnectionType, StepType } from '../../vocabulary/automations';
import { validationError } from '../../errors';
import { checkGraph } from './graph';
import { AUTOMATION_LIMITS } from './limits';
import { configSchemaFor } from './step-configs';

/** A definition as a request gives it: the edge has checked each step's and connection's outline, not its config. */
export interface DefinitionInput {
  steps: Array<{ key: string; type: StepType; config: Record<string, unknown> }>;
  connections: Array<{ from: string; to: string; type?: ConnectionType }>;
}

/** Who a refusal is about: every message of a definition's refusal names its step. */
export const stepLabel = (step: Pick<StoredStep, 'key'>) => `Step "${step.key}"`;

function parseStep(step: DefinitionInput['steps'][number]): StoredStep {
  const parsed = configSchemaFor(step.type, step.config).safeParse(step.config);
  if (parsed.success) return { key: step.key, type: step.type, config: parsed.data as Record<string, unknown> };
  const problems = parsed.error.issues.slice(0, 3).map((issue) => {
    const where = ['config', ...issue.path.map(String)].join('.');
    return `${where}: ${issue.message}`;
  });
  throw validationError(`${stepLabel(step)} (${step.type}): ${problems.join('; ')}`);
}

/**
 * The definition checked and written out as it is stored: every config read by its type's schema
 * (unknown fields refused), connection types filled in, and the graph's rules (graph.ts). Refusals
 * are 400 VALIDATION_ERROR naming the step.
 */
export function parseDefinition(input: DefinitionInput): AutomationDefinition {
  if (input.steps.length > AUTOMATION_LIMITS.steps) throw validationError(`steps: at most ${AUTOMATION_LIMITS.steps} steps`);
  if (input.connections.length > AUTOMATION_LIMITS.connections) throw validationError(`connections: at most ${AUTOMATION_LIMITS.connections} connections`);
  const seen = new Set<string>();
  for (const step of input.steps) {
    if (seen.has(step.key)) throw validationError(`${stepLabel(step)} is given twice: step keys must be unique`);
    seen.add(step.key);
  }
  const triggers = input.steps.filter((step) => step.type === 'trigger');
  if (triggers.length === 0) throw validationError('steps: an automation needs exactly one trigger step (type "trigger"), and has none');
  if (triggers.length > 1) throw validationError(`Steps ${triggers.map((step) => `"${step.key}"`).join(' and ')} are all triggers: an automation has exactly one`);
  const definition: AutomationDefinition = {
    steps: input.steps.map(parseStep),
    connections: input.connections.map((connection) => ({ from: connection.from, to: connection.to, type: connection.type ?? 'default' })),
  };
  checkGraph(definition);
  return definition;
}

/** The trigger step of a checked definition (there is exactly one). */
export const triggerOf = (definition: AutomationDefinition): StoredStep => definition.steps.find((step) => step.type === 'trigger')!;

/** The trigger's event name, which decides which events start runs. */
export const triggerEventName = (definition: AutomationDefinition): string => String(triggerOf(definition).config.event_name);

/** Whether the automation sends email: what the plan rule for list mail reads. */
export const sendsEmail = (definition: AutomationDefinition): StoredStep | undefined => definition.steps.find((step) => step.type === 'send_email');

/** JSON with every object's keys in order: jsonb keeps its own key order, so a stored definition is compared by this. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, field]) => field !== undefined);
    return `{${entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([key, field]) => `${JSON.stringify(key)}:${canonical(field)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** Whether two definitions say the same thing (steps and connections in the same order, the same configs). */
export const sameDefinition = (a: AutomationDefinition, b: AutomationDefinition): boolean => canonical(a) === canonical(b);

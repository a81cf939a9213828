import type { AutomationDefinition, StoredConnection, StoredStep } from '@/db/schema';
import type { ConnectionType, StepType } from '../../vocabulary/automations';
import { validationError } from '../../errors';
import { conditionFields, EMAIL_FIELDS, type Condition } from './conditions';

// The rules of the graph, checked on every save (docs/automations.md, "Validation"). A run is one
// cursor through the graph: each step leads on by at most one connection of each type, so "what
// happens next" always has one answer.

/** The connection types each step type leads on by, and which of them it must have. */
const BRANCHES: Record<StepType, { allowed: readonly ConnectionType[]; required: readonly ConnectionType[] }> = {
  trigger: { allowed: ['default'], required: [] },
  delay: { allowed: ['default'], required: [] },
  send_email: { allowed: ['default'], required: [] },
  contact_update: { allowed: ['default'], required: [] },
  add_to_segment: { allowed: ['default'], required: [] },
  // The contact is gone: a run has no one to go on with.
  contact_delete: { allowed: [], required: [] },
  condition: { allowed: ['condition_met', 'condition_not_met'], required: ['condition_met', 'condition_not_met'] },
  wait_for_event: { allowed: ['event_received', 'timeout'], required: ['event_received', 'timeout'] },
};

const label = (key: string) => `Step "${key}"`;
const an = (word: string) => (/^[aeiou]/.test(word) ? `an ${word}` : `a ${word}`);

function checkConnections(steps: Map<string, StoredStep>, connections: StoredConnection[]): void {
  const taken = new Set<string>();
  connections.forEach((connection, index) => {
    for (const end of ['from', 'to'] as const) {
      if (!steps.has(connection[end])) throw validationError(`connections[${index}]: ${end} names no step ("${connection[end]}")`);
    }
    const from = steps.get(connection.from)!;
    const to = steps.get(connection.to)!;
    if (from.key === to.key) throw validationError(`${label(from.key)} connects to itself`);
    if (to.type === 'trigger') throw validationError(`${label(to.key)} is the trigger: no connection may lead into it (from "${from.key}")`);
    const { allowed } = BRANCHES[from.type];
    if (!allowed.includes(connection.type)) {
      const way = allowed.length === 0 ? 'leads nowhere (the run ends there)' : `leads on by ${allowed.join(' and ')} connections only`;
      throw validationError(`${label(from.key)} (${from.type}) has ${an(connection.type)} connection to "${to.key}": ${an(from.type)} step ${way}`);
    }
    const slot = `${from.key}\u0000${connection.type}`;
    if (taken.has(slot)) throw validationError(`${label(from.key)} has two ${connection.type} connections: a run follows one path, so branch with a condition step`);
    taken.add(slot);
  });
  for (const step of steps.values()) {
    const missing = BRANCHES[step.type].required.find((type) => !taken.has(`${step.key}\u0000${type}`));
    if (missing) throw validationError(`${label(step.key)} (${step.type}) needs ${an(missing)} connection: ${an(step.type)} step has both ${BRANCHES[step.type].required.join(' and ')}`);
  }
}

function checkReachable(trigger: StoredStep, steps: Map<string, StoredStep>, next: Map<string, string[]>): void {
  const reached = new Set([trigger.key]);
  const queue = [trigger.key];
  while (queue.length > 0) {
    for (const to of next.get(queue.shift()!) ?? []) {
      if (!reached.has(to)) {
        reached.add(to);
        queue.push(to);
      }
    }
  }
  const lost = [...steps.keys()].find((key) => !reached.has(key));
  if (lost) throw validationError(`${label(lost)} is not reachable from the trigger "${trigger.key}": connect it or remove it`);
}

/** A loop that passes no delay would run without pause: every cycle must hold a delay step. */
function checkLoops(steps: Map<string, StoredStep>, next: Map<string, string[]>): void {
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (key: string): void => {
    state.set(key, 'open');
    path.push(key);
    for (const to of next.get(key) ?? []) {
      if (steps.get(to)!.type === 'delay') continue;
      if (state.get(to) === 'open') {
        const loop = [...path.slice(path.indexOf(to)), to].map((step) => `"${step}"`).join(' → ');
        throw validationError(`${label(to)} is on a loop without a delay (${loop}): a loop must pass through a delay step`);
      }
      if (!state.has(to)) visit(to);
    }
    path.pop();
    state.set(key, 'done');
  };
  for (const step of steps.values()) if (step.type !== 'delay' && !state.has(step.key)) visit(step.key);
}

/** A condition on "the previous email" needs a send_email step before it on every path from the trigger. */
function checkPreviousEmail(trigger: StoredStep, steps: Map<string, StoredStep>, connections: StoredConnection[]): void {
  const readers = [...steps.values()].filter((step) => step.type === 'condition' && conditionFields(step.config as Condition).some((field) => (EMAIL_FIELDS as readonly string[]).includes(field)));
  if (readers.length === 0) return;
  // Forward must-analysis: sent(n) holds when every way into n comes from a send_email step or from
  // a step where sent holds. Start from "true" everywhere but the trigger and lower to the fixpoint.
  const sent = new Map([...steps.keys()].map((key) => [key, key !== trigger.key]));
  for (let changed = true; changed; ) {
    changed = false;
    for (const step of steps.values()) {
      if (step.key === trigger.key || !sent.get(step.key)) continue;
      const into = connections.filter((connection) => connection.to === step.key);
      if (!into.every((connection) => steps.get(connection.from)!.type === 'send_email' || sent.get(connection.from))) {
        sent.set(step.key, false);
        changed = true;
      }
    }
  }
  const early = readers.find((step) => !sent.get(step.key));
  if (early) throw validationError(`${label(early.key)} asks whether the previous email was opened or clicked, but a path from the trigger reaches it before any send_email step`);
}

export function checkGraph(definition: AutomationDefinition): void {
  const steps = new Map(definition.steps.map((step) => [step.key, step]));
  checkConnections(steps, definition.connections);
  const next = new Map<string, string[]>();
  for (const connection of definition.connections) next.set(connection.from, [...(next.get(connection.from) ?? []), connection.to]);
  const trigger = definition.steps.find((step) => step.type === 'trigger')!;
  checkReachable(trigger, steps, next);
  checkLoops(steps, next);
  checkPreviousEmail(trigger, steps, definition.connections);
}

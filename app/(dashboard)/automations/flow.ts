import type { Automation, ConnectionType, StepType } from './types';

// The editor's picture of a definition (docs/automations.md, "Dashboard"): a vertical list of steps
// from the trigger down, where a condition or a wait_for_event ends its list with two branches,
// each a list of its own. A step reached a second time (two branches joining, a loop back through a
// delay) is shown once, where it is first reached; the other way in is a "continue at" entry.

export interface Step {
  key: string;
  type: StepType;
  config: Record<string, unknown>;
}

export type Entry = { kind: 'step'; step: Step; branches?: [Flow, Flow] } | { kind: 'goto'; key: string };
export type Flow = Entry[];

/** Where a list sits: from the root, each pair is the index of a branching step in its list and which branch of it. */
export type FlowPath = Array<[number, 0 | 1]>;

/** The two ways on of a branching step, in the order the editor shows them. */
export const BRANCHES: Partial<Record<StepType, [ConnectionType, ConnectionType]>> = {
  condition: ['condition_met', 'condition_not_met'],
  wait_for_event: ['event_received', 'timeout'],
};

export const BRANCH_LABELS: Record<ConnectionType, string> = {
  default: 'Then',
  condition_met: 'If the condition is met',
  condition_not_met: 'Otherwise',
  event_received: 'When the event arrives',
  timeout: 'If it times out',
};

/** The definition as the editor shows it. */
export function flowOf(definition: Pick<Automation, 'steps' | 'connections'>): Flow {
  const steps = new Map(definition.steps.map((step) => [step.key, step]));
  const ways = new Map(definition.connections.map((connection) => [`${connection.from}\u0000${connection.type}`, connection.to]));
  const shown = new Set<string>();
  const from = (start: string | null): Flow => {
    const flow: Flow = [];
    let key = start;
    while (key !== null) {
      if (shown.has(key)) {
        flow.push({ kind: 'goto', key });
        break;
      }
      const step = steps.get(key);
      if (!step) break;
      shown.add(key);
      const branches = BRANCHES[step.type];
      if (branches) {
        const stepKey = key;
        flow.push({ kind: 'step', step: { ...step }, branches: [from(ways.get(`${stepKey}\u0000${branches[0]}`) ?? null), from(ways.get(`${stepKey}\u0000${branches[1]}`) ?? null)] });
        break;
      }
      flow.push({ kind: 'step', step: { ...step } });
      key = ways.get(`${key}\u0000default`) ?? null;
    }
    return flow;
  };
  const trigger = definition.steps.find((step) => step.type === 'trigger');
  return trigger ? from(trigger.key) : [];
}

/** Every step of the flow, top to bottom. */
export function stepsOf(flow: Flow): Step[] {
  return flow.flatMap((entry) => (entry.kind === 'goto' ? [] : [entry.step, ...(entry.branches ? [...stepsOf(entry.branches[0]), ...stepsOf(entry.branches[1])] : [])]));
}

/** The steps and connections the create and update procedures take; a "continue at" a removed step is dropped. */
export function definitionOf(flow: Flow): Pick<Automation, 'steps' | 'connections'> {
  const steps = stepsOf(flow);
  const keys = new Set(steps.map((step) => step.key));
  const connections: Automation['connections'] = [];
  const walk = (list: Flow, into: { key: string; type: ConnectionType } | null) => {
    let previous = into;
    for (const entry of list) {
      const key = entry.kind === 'goto' ? entry.key : entry.step.key;
      if (entry.kind === 'goto' && !keys.has(key)) return;
      if (previous) connections.push({ from: previous.key, to: key, type: previous.type });
      if (entry.kind === 'goto') return;
      if (entry.branches) {
        const [first, second] = BRANCHES[entry.step.type]!;
        walk(entry.branches[0], { key, type: first });
        walk(entry.branches[1], { key, type: second });
        return;
      }
      previous = { key, type: 'default' };
    }
  };
  walk(flow, null);
  return { steps, connections };
}

const listAt = (flow: Flow, path: FlowPath): Flow => {
  let list = flow;
  for (const [index, branch] of path) {
    const entry = list[index];
    if (!entry || entry.kind !== 'step' || !entry.branches) throw new Error('No branch there');
    list = entry.branches[branch];
  }
  return list;
};

/** A key not taken yet: `delay_2`. */
export function newKey(type: StepType, flow: Flow): string {
  const taken = new Set(stepsOf(flow).map((step) => step.key));
  for (let n = 1; ; n++) if (!taken.has(`${type}_${n}`)) return `${type}_${n}`;
}

/** Adds a step at `index` of a list. A branching step takes what followed it into its first branch. */
export function insertStep(flow: Flow, path: FlowPath, index: number, step: Step): Flow {
  const next = structuredClone(flow);
  const list = listAt(next, path);
  if (BRANCHES[step.type]) {
    const rest = list.splice(index);
    list.push({ kind: 'step', step, branches: [rest, []] });
  } else {
    list.splice(index, 0, { kind: 'step', step });
  }
  return next;
}

/** Removes a step; a branching step's first branch takes its place and its second branch goes with it. */
export function removeStep(flow: Flow, path: FlowPath, index: number): Flow {
  const next = structuredClone(flow);
  const list = listAt(next, path);
  const entry = list[index];
  if (!entry) return next;
  list.splice(index, 1, ...(entry.kind === 'step' && entry.branches ? entry.branches[0] : []));
  return next;
}

/** Replaces one step's config. */
export function updateConfig(flow: Flow, path: FlowPath, index: number, config: Record<string, unknown>): Flow {
  const next = structuredClone(flow);
  const entry = listAt(next, path)[index];
  if (entry?.kind === 'step') entry.step.config = config;
  return next;
}

/** Whether a step may be added at `index` of a list: never above the trigger, nor after a list's end (a branching step, a "continue at"). */
export function canInsertAt(list: Flow, index: number, root: boolean): boolean {
  if (root && index === 0) return false;
  const before = list[index - 1];
  return !(before && (before.kind === 'goto' || before.branches));
}

/** The step a server refusal names (`Step "wait_1_day" (delay): …`), else null (a connection's, the name's). */
export function stepOfError(message: string): string | null {
  return /^Step "([^"]+)"/.exec(message)?.[1] ?? null;
}

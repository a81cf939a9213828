import { describe, expect, it } from 'vitest';
import { canInsertAt, definitionOf, flowOf, insertStep, removeStep, stepOfError, stepsOf, updateConfig, type Flow } from '@/app/(dashboard)/automations/flow';
import type { Automation } from '@/app/(dashboard)/automations/types';

// The editor's picture of a definition (docs/automations.md, "Dashboard"): a vertical list with
// branches, read from the steps and connections and written back to them unchanged.

type Definition = Pick<Automation, 'steps' | 'connections'>;

const welcome: Definition = {
  steps: [
    { key: 'start', type: 'trigger', config: { event_name: 'user.created' } },
    { key: 'welcome', type: 'send_email', config: { template: { id: 't1' } } },
    { key: 'one_day', type: 'delay', config: { duration: '1 day' } },
    { key: 'opened', type: 'condition', config: { type: 'rule', field: 'email.opened', operator: 'eq', value: true } },
    { key: 'tip', type: 'send_email', config: { template: { id: 't2' } } },
    { key: 'reminder', type: 'send_email', config: { template: { id: 't3' } } },
    { key: 'two_days', type: 'delay', config: { duration: '2 days' } },
    { key: 'last', type: 'send_email', config: { template: { id: 't4' } } },
  ],
  connections: [
    { from: 'start', to: 'welcome', type: 'default' },
    { from: 'welcome', to: 'one_day', type: 'default' },
    { from: 'one_day', to: 'opened', type: 'default' },
    { from: 'opened', to: 'tip', type: 'condition_met' },
    { from: 'opened', to: 'reminder', type: 'condition_not_met' },
    { from: 'tip', to: 'two_days', type: 'default' },
    { from: 'reminder', to: 'two_days', type: 'default' },
    { from: 'two_days', to: 'last', type: 'default' },
  ],
};

const sorted = (definition: Definition) => ({
  steps: [...definition.steps].sort((a, b) => a.key.localeCompare(b.key)),
  connections: definition.connections.map((connection) => `${connection.from}-${connection.type}->${connection.to}`).sort(),
});
const keysOf = (list: Flow) => list.map((entry) => (entry.kind === 'goto' ? `→${entry.key}` : entry.step.key));

describe('the automation editor’s flow', () => {
  it('shows branches joining once, the other way in as "continues at", and writes the definition back unchanged', () => {
    const flow = flowOf(welcome);
    expect(keysOf(flow)).toEqual(['start', 'welcome', 'one_day', 'opened']);
    const opened = flow[3]!;
    if (opened.kind !== 'step' || !opened.branches) throw new Error('the condition has its branches');
    expect(keysOf(opened.branches[0])).toEqual(['tip', 'two_days', 'last']);
    expect(keysOf(opened.branches[1])).toEqual(['reminder', '→two_days']);
    expect(sorted(definitionOf(flow))).toEqual(sorted(welcome));
  });

  it('keeps a loop back through a delay', () => {
    const loop: Definition = {
      steps: [
        { key: 'start', type: 'trigger', config: { event_name: 'trial.started' } },
        { key: 'week', type: 'delay', config: { duration: '1 week' } },
        { key: 'paid', type: 'condition', config: { type: 'rule', field: 'contact.plan', operator: 'eq', value: 'paid' } },
        { key: 'nudge', type: 'send_email', config: { template: { id: 't1' } } },
      ],
      connections: [
        { from: 'start', to: 'week', type: 'default' },
        { from: 'week', to: 'paid', type: 'default' },
        { from: 'paid', to: 'nudge', type: 'condition_not_met' },
        { from: 'nudge', to: 'week', type: 'default' },
      ],
    };
    const flow = flowOf(loop);
    expect(sorted(definitionOf(flow))).toEqual(sorted(loop));
    // The met branch is empty: the run ends there, and a step may be added to it.
    const paid = flow[2]!;
    if (paid.kind !== 'step' || !paid.branches) throw new Error('the condition has its branches');
    expect(paid.branches[0]).toEqual([]);
    expect(canInsertAt(paid.branches[0], 0, false)).toBe(true);
    expect(canInsertAt(paid.branches[1], 2, false)).toBe(false);
  });

  it('adds a branching step in the middle of a list, taking what followed into its first branch; removing it puts that back', () => {
    const start: Flow = flowOf({
      steps: [
        { key: 'start', type: 'trigger', config: { event_name: 'contact.created' } },
        { key: 'hello', type: 'send_email', config: { template: { id: 't1' } } },
      ],
      connections: [{ from: 'start', to: 'hello', type: 'default' }],
    });
    expect(canInsertAt(start, 0, true)).toBe(false);
    const waited = insertStep(start, [], 1, { key: 'wait_for_event_1', type: 'wait_for_event', config: { event_name: 'app.opened', timeout: '3 days' } });
    expect(keysOf(waited)).toEqual(['start', 'wait_for_event_1']);
    expect(definitionOf(waited).connections).toEqual([
      { from: 'start', to: 'wait_for_event_1', type: 'default' },
      { from: 'wait_for_event_1', to: 'hello', type: 'event_received' },
    ]);
    // The list ends at the branching step: nothing goes after it but in its branches.
    expect(canInsertAt(waited, 2, true)).toBe(false);
    const timedOut = insertStep(waited, [[1, 1]], 0, { key: 'delay_1', type: 'delay', config: { duration: '1 day' } });
    expect(definitionOf(timedOut).connections).toContainEqual({ from: 'wait_for_event_1', to: 'delay_1', type: 'timeout' });
    const edited = updateConfig(timedOut, [[1, 1]], 0, { duration: '2 days' });
    expect(stepsOf(edited).find((step) => step.key === 'delay_1')!.config).toEqual({ duration: '2 days' });
    // The original is left as it was: each change makes a new flow.
    expect(stepsOf(timedOut).find((step) => step.key === 'delay_1')!.config).toEqual({ duration: '1 day' });

    const removed = removeStep(edited, [], 1);
    expect(keysOf(removed)).toEqual(['start', 'hello']);
    expect(definitionOf(removed).connections).toEqual([{ from: 'start', to: 'hello', type: 'default' }]);
  });

  it('drops a "continues at" whose step was removed, and reads the step a refusal names', () => {
    const flow = flowOf(welcome);
    const withoutJoin = removeStep(flow, [[3, 0]], 1);
    const { steps, connections } = definitionOf(withoutJoin);
    expect(steps.map((step) => step.key)).not.toContain('two_days');
    expect(connections.some((connection) => connection.to === 'two_days')).toBe(false);
    expect(connections).toContainEqual({ from: 'tip', to: 'last', type: 'default' });

    expect(stepOfError('Step "wait_1_day" (delay): config.duration: "soon" is not a duration')).toBe('wait_1_day');
    expect(stepOfError('connections[2]: to names no step ("nowhere")')).toBeNull();
  });
});

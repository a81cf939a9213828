import type { RouterInputs, RouterOutputs } from '@/server/routers/types';

export type AutomationSummary = RouterOutputs['automations']['list']['data'][number];
export type Automation = RouterOutputs['automations']['get'];
export type AutomationFigures = RouterOutputs['automationRuns']['figures'];
export type RunSummary = RouterOutputs['automationRuns']['list']['data'][number];
export type Run = RouterOutputs['automationRuns']['get'];
export type CreateAutomationInput = RouterInputs['automations']['create'];
export type StepType = Automation['steps'][number]['type'];
export type ConnectionType = Automation['connections'][number]['type'];
export type RunStatus = RunSummary['status'];

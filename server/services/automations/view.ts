import type { automations, AutomationDefinition, StoredConnection, StoredStep } from '@/db/schema';
import type { AutomationStatus } from '../../vocabulary/automations';

export type AutomationRow = typeof automations.$inferSelect;

/** An automation in a list: Resend's fields (id, name, status, dates) and ours beside. */
export interface AutomationListItem {
  id: string;
  name: string;
  status: AutomationStatus;
  /** The version new runs start on; every change of steps or connections adds one. */
  version: number;
  triggerEventName: string;
  createdAt: string;
  updatedAt: string;
}

/** One automation with its current definition, steps and connections as they were written. */
export interface AutomationView extends AutomationListItem {
  steps: StoredStep[];
  connections: StoredConnection[];
}

export const listItem = (row: AutomationRow): AutomationListItem => ({
  id: row.id,
  name: row.name,
  status: row.status,
  version: row.currentVersion,
  triggerEventName: row.triggerEventName,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

export const automationView = (row: AutomationRow, definition: AutomationDefinition): AutomationView => ({
  ...listItem(row),
  steps: definition.steps,
  connections: definition.connections,
});

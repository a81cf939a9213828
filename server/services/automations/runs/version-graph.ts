import type { Db } from '@/db/client';
import type { AutomationDefinition, StoredStep } from '@/db/schema';
import type { ConnectionType } from '../../../vocabulary/automations';
import { definitionOf } from '../rows';

/** One version's definition, ready for a run to walk: its steps by key, and where each way out leads. */
export interface VersionGraph {
  definition: AutomationDefinition;
  step(key: string): StoredStep | undefined;
  /** The step a connection of this type leads to from `key`, or null (the run ends there). */
  next(key: string, type: ConnectionType): string | null;
  trigger: StoredStep;
}

export function graphOf(definition: AutomationDefinition): VersionGraph {
  const steps = new Map(definition.steps.map((step) => [step.key, step]));
  const ways = new Map(definition.connections.map((connection) => [`${connection.from}\u0000${connection.type}`, connection.to]));
  return {
    definition,
    step: (key) => steps.get(key),
    next: (key, type) => ways.get(`${key}\u0000${type}`) ?? null,
    trigger: definition.steps.find((step) => step.type === 'trigger')!,
  };
}

// A version never changes once written (the table refuses updates), so a process keeps what it read:
// runs of one version, by the thousand, read its definition once.
const cache = new Map<string, VersionGraph>();
const CACHE_MOST = 1_000;

/** The graph of one version of an automation, read once per process. */
export async function versionGraph(db: Db, automationId: string, version: number): Promise<VersionGraph> {
  const key = `${automationId}:${version}`;
  const cached = cache.get(key);
  if (cached) return cached;
  const graph = graphOf(await definitionOf(db, automationId, version));
  if (cache.size >= CACHE_MOST) cache.delete(cache.keys().next().value!);
  cache.set(key, graph);
  return graph;
}

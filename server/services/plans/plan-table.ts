// The plan table, declared once. Imports nothing, so the dashboard's billing page can show it as is.

export interface Plan {
  id: PlanId;
  label: string;
  monthlyEmails: number;
  priceEurCents: number;
  overagePer1000EurCents: number | null;
  domains: number | null;
  webhookEndpoints: number;
  contacts: number;
  logRetentionDays: number;
  /** null = unlimited */
  apiKeys: number | null;
  /** API requests per sliding rate-limit window. */
  requestsPerWindow: number;
  /** Whether broadcasts may be sent (the spec: a paid plan); drafts and test copies work on every plan. Automations that send follow it (list mail). */
  sendsBroadcasts: boolean;
  /** Automations enabled at once (docs/automations.md); null = unlimited. */
  enabledAutomations: number | null;
  /** Automation runs started per calendar month (UTC): ten per contact the plan keeps (docs/automations.md). */
  automationRunsPerMonth: number;
}

export const PLAN_IDS = ['free', '10k', '25k', '50k', '100k', '250k', '500k', '1m', '2m'] as const;
export type PlanId = (typeof PLAN_IDS)[number];

const plan = (
  id: PlanId,
  monthlyEmails: number,
  priceEurCents: number,
  overagePer1000EurCents: number | null,
  domains: number | null,
  webhookEndpoints: number,
  contacts: number,
  logRetentionDays: number,
  enabledAutomations: number | null,
): Plan => ({
  id,
  label: id === 'free' ? 'Free' : `Production ${id}`,
  monthlyEmails,
  priceEurCents,
  overagePer1000EurCents,
  domains,
  webhookEndpoints,
  contacts,
  logRetentionDays,
  apiKeys: id === 'free' ? 1 : null,
  requestsPerWindow: 100,
  sendsBroadcasts: priceEurCents > 0,
  enabledAutomations,
  automationRunsPerMonth: 10 * contacts,
});

/** The spec's plan table, row for row; the last column, enabled automations, is ours (docs/plans.md). */
export const PLANS: Record<PlanId, Plan> = {
  free: plan('free', 3_000, 0, null, 1, 1, 1_000, 30, 1),
  '10k': plan('10k', 10_000, 900, 45, 3, 3, 5_000, 30, 5),
  '25k': plan('25k', 25_000, 1350, 45, 3, 3, 10_000, 30, 10),
  '50k': plan('50k', 50_000, 2100, 45, 5, 3, 25_000, 30, 20),
  '100k': plan('100k', 100_000, 3600, 39, 10, 5, 50_000, 30, 50),
  '250k': plan('250k', 250_000, 7500, 39, 25, 5, 100_000, 90, 100),
  '500k': plan('500k', 500_000, 14000, 33, 50, 10, 250_000, 90, null),
  '1m': plan('1m', 1_000_000, 25000, 27, 100, 10, 500_000, 90, null),
  '2m': plan('2m', 2_000_000, 43000, 24, null, 10, 1_000_000, 90, null),
};

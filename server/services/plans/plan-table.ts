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
  /** Whether broadcasts may be sent (the spec: a paid plan); drafts and test copies work on every plan. */
  sendsBroadcasts: boolean;
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
});

/** The spec's plan table, row for row. */
export const PLANS: Record<PlanId, Plan> = {
  free: plan('free', 3_000, 0, null, 1, 1, 1_000, 30),
  '10k': plan('10k', 10_000, 900, 45, 3, 3, 5_000, 30),
  '25k': plan('25k', 25_000, 1350, 45, 3, 3, 10_000, 30),
  '50k': plan('50k', 50_000, 2100, 45, 5, 3, 25_000, 30),
  '100k': plan('100k', 100_000, 3600, 39, 10, 5, 50_000, 30),
  '250k': plan('250k', 250_000, 7500, 39, 25, 5, 100_000, 90),
  '500k': plan('500k', 500_000, 14000, 33, 50, 10, 250_000, 90),
  '1m': plan('1m', 1_000_000, 25000, 27, 100, 10, 500_000, 90),
  '2m': plan('2m', 2_000_000, 43000, 24, null, 10, 1_000_000, 90),
};

// The ways mail enters the service, declared once: each a label of the one admit door (admit.ts)
// and of /metrics' eumail_admitted_total. Imports nothing.

/**
 * `api` (POST /emails, and the dashboard's tRPC send), `batch` (POST /emails/batch), `smtp` (the
 * relay gateway), `broadcast` (a broadcast's chunk), `broadcast_test` (POST /broadcasts/{id}/test),
 * `confirmation` (a double opt-in's confirmation email, docs/consent.md), `reengagement` (a
 * sunset's re-engagement email, docs/audiences.md), `automation` (an automation's
 * `send_email` step, docs/automations.md), `system` (the service's own messages: confirmations, alerts, notices).
 */
export const ADMIT_VIAS = ['api', 'batch', 'smtp', 'broadcast', 'broadcast_test', 'confirmation', 'reengagement', 'automation', 'system'] as const;
export type AdmitVia = (typeof ADMIT_VIAS)[number];

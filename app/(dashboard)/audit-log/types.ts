import type { RouterOutputs } from '@/server/routers/types';

export type AuditEvent = RouterOutputs['auditLog']['list']['data'][number];
export type AuditAction = AuditEvent['action'];

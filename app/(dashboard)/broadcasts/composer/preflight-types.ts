import type { RouterOutputs } from '@/server/routers/types';

/** What `broadcasts.preflight` answers: `ready` when no check fails (a warning does not stop a send). */
export type Preflight = RouterOutputs['broadcasts']['preflight'];
export type PreflightCheck = Preflight['checks'][number];
export type CheckStatus = PreflightCheck['status'];

/**
 * What `broadcasts.preflight` answers (server/services/broadcasts/preflight/checks.ts). Declared
 * here while that procedure is on its way into the router; once it is, these are
 * `RouterOutputs['broadcasts']['preflight']` and its check.
 */
export type CheckStatus = 'pass' | 'warn' | 'fail';

export interface PreflightCheck {
  id: string;
  status: CheckStatus;
  title: string;
  /** What was found and, for warn and fail, how to fix it. */
  detail: string;
}

export interface Preflight {
  /** No check failed: a warning is worth reading but does not stop a send. */
  ready: boolean;
  checks: PreflightCheck[];
}

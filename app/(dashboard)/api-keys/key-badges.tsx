import { Badge } from '../../components/badge';
import type { Dialect, Mode, Permission } from './types';

export const PERMISSION_LABELS: Record<Permission, string> = { full_access: 'Full access', sending_access: 'Sending access' };
export const MODE_LABELS: Record<Mode, string> = { live: 'Live', test: 'Test' };
export const DIALECT_LABELS: Record<Dialect, string> = { spec: 'EU Mail API', resend: "Resend's shapes" };

export function PermissionBadge({ permission }: { permission: Permission }) {
  return <Badge tone={permission === 'full_access' ? 'accent' : 'blue'}>{PERMISSION_LABELS[permission]}</Badge>;
}

export function ModeBadge({ mode }: { mode: Mode }) {
  return <Badge tone={mode === 'live' ? 'green' : 'amber'}>{MODE_LABELS[mode]}</Badge>;
}

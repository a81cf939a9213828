import { ROLE_DESCRIPTIONS, type Role } from '@/server/vocabulary/roles';
import type { BadgeTone } from '../../components/badge';

export const ROLE_LABELS: Record<Role, string> = {
  owner: 'Owner',
  admin: 'Admin',
  developer: 'Developer',
  marketer: 'Marketer',
  billing: 'Billing',
  viewer: 'Viewer',
};

export const ROLE_TONES: Record<Role, BadgeTone> = {
  owner: 'accent',
  admin: 'violet',
  developer: 'blue',
  marketer: 'fuchsia',
  billing: 'amber',
  viewer: 'neutral',
};

export { ROLE_DESCRIPTIONS };

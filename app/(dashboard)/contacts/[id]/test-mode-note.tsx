'use client';

import { Alert } from '../../../components/alert';
import { SwitchToLiveButton } from '../../../components/switch-to-live-button';
import { useDashboardMode } from '../../../lib/dashboard-mode';

/** In test mode, why the contact's controls are off: contacts are live state, read in both modes, changed in Live. */
export function TestModeNote() {
  if (useDashboardMode() !== 'test') return null;
  return (
    <Alert tone="info" title="Test mode">
      <span data-testid="live-only-note">
        Contacts are shared by Live and Test mode: change them in Live. <SwitchToLiveButton />
      </span>
    </Alert>
  );
}

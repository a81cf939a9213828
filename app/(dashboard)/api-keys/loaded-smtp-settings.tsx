'use client';

import { Button } from '../../components/button';
import { ErrorAlert } from '../../components/error-alert';
import { SmtpSettingsList } from './smtp-settings-list';
import { SmtpSettingsSkeleton } from './smtp-settings-skeleton';
import { useSmtpSettings } from './use-smtp-settings';

/** The SMTP settings once loaded: placeholder rows meanwhile, the server's error with a retry if it fails. */
export function LoadedSmtpSettings({ secret }: { secret?: string }) {
  const settings = useSmtpSettings();
  if (settings.isPending) return <SmtpSettingsSkeleton />;
  if (settings.isError) {
    return (
      <ErrorAlert
        error={settings.error}
        fallbackTitle="Could not load the SMTP settings"
        action={
          <Button variant="secondary" size="sm" onClick={() => void settings.refetch()} loading={settings.isFetching}>
            Try again
          </Button>
        }
      />
    );
  }
  return <SmtpSettingsList settings={settings.data} secret={secret} />;
}

'use client';

import { ErrorAlert } from '../../components/error-alert';
import { RetryButton } from '../../components/retry-button';
import { SmtpSettingsList } from './smtp-settings-list';
import { SmtpSettingsSkeleton } from './smtp-settings-skeleton';
import { useSmtpSettings } from './use-smtp-settings';

/** The SMTP settings once loaded: placeholder rows meanwhile, the server's error with a retry if it fails. */
export function LoadedSmtpSettings({ secret }: { secret?: string }) {
  const settings = useSmtpSettings();
  if (settings.isPending) return <SmtpSettingsSkeleton />;
  if (settings.isError) {
    return (
      <ErrorAlert error={settings.error} fallbackTitle="Could not load the SMTP settings" action={<RetryButton query={settings} />} />
    );
  }
  return <SmtpSettingsList settings={settings.data} secret={secret} />;
}

import { Alert } from '../../components/alert';
import { CopyButton } from '../../components/copy-button';
import type { SmtpSettings } from './types';

const ROW = 'grid grid-cols-[minmax(0,1fr)_auto] items-center gap-x-3 gap-y-0.5 py-2 sm:grid-cols-[8rem_minmax(0,1fr)_auto]';

/** One setting: its name, the value as a client wants it, and a copy button named after it. */
function SettingRow({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <div className={ROW}>
      <dt className="col-span-2 text-sm text-slate-500 sm:col-span-1">{label}</dt>
      <dd className="min-w-0">
        <code className="font-mono text-[13px] break-all text-slate-900" data-testid={testId}>
          {value}
        </code>
      </dd>
      <dd>
        <CopyButton text={value} size="sm" iconOnly describe={label} />
      </dd>
    </div>
  );
}

const securityNote = (starttlsPort: number | null, implicitTlsPort: number | null) =>
  [starttlsPort !== null && `port ${starttlsPort} with STARTTLS`, implicitTlsPort !== null && `port ${implicitTlsPort} with SSL/TLS`].filter(Boolean).join(', or ');

/**
 * Host, ports, username and password for a mail client, each with a copy button. `secret` is the
 * key just created (the one time it is shown); otherwise the password row says what goes there.
 */
export function SmtpSettingsList({ settings, secret }: { settings: SmtpSettings; secret?: string }) {
  const { starttlsPort, implicitTlsPort } = settings;
  if (starttlsPort === null && implicitTlsPort === null) {
    return (
      <Alert tone="info" title="The SMTP gateway is off">
        <span data-testid="smtp-gateway-off">This service does not accept SMTP logins at the moment: send through the API instead.</span>
      </Alert>
    );
  }

  return (
    <div className="space-y-3" data-testid="smtp-settings">
      <dl className="divide-y divide-slate-100">
        <SettingRow label="Host" value={settings.host} testId="smtp-host" />
        {starttlsPort !== null && <SettingRow label="STARTTLS port" value={String(starttlsPort)} testId="smtp-starttls-port" />}
        {implicitTlsPort !== null && <SettingRow label="SSL/TLS port" value={String(implicitTlsPort)} testId="smtp-tls-port" />}
        <SettingRow label="Username" value={settings.username} testId="smtp-username" />
        {secret ? (
          <SettingRow label="Password" value={secret} testId="smtp-password" />
        ) : (
          <div className={ROW}>
            <dt className="col-span-2 text-sm text-slate-500 sm:col-span-1">Password</dt>
            <dd className="col-span-2 text-sm text-slate-900" data-testid="smtp-password">
              The secret of a <span className="font-medium">sending access</span> key
            </dd>
          </div>
        )}
      </dl>
      <p className="text-xs text-slate-500" data-testid="smtp-tls-note">
        Security: {securityNote(starttlsPort, implicitTlsPort)}. The server accepts a login (AUTH PLAIN or LOGIN) only once the connection is encrypted.
      </p>
      {settings.certificate === 'self-signed' && (
        <Alert tone="warning" title="Self-signed certificate">
          <span data-testid="smtp-self-signed">
            Mail clients must be set to skip certificate verification, which is fit for trying the service out only. Sending in production needs a trusted
            certificate (SMTP_TLS_CERT and SMTP_TLS_KEY on the server).
          </span>
        </Alert>
      )}
    </div>
  );
}

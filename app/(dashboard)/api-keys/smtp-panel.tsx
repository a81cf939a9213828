import { LoadedSmtpSettings } from './loaded-smtp-settings';

/** The page's anchor: a sending key's "SMTP" link leads here. */
export const SMTP_PANEL_ID = 'smtp';

/** How applications that only speak SMTP send: the gateway's settings, with any sending key as the password. */
export function SmtpPanel() {
  return (
    <section
      id={SMTP_PANEL_ID}
      aria-labelledby="smtp-heading"
      data-testid="smtp-panel"
      className="mt-8 scroll-mt-6 rounded-xl border border-slate-200 bg-white p-5 shadow-sm target:ring-2 target:ring-indigo-500"
    >
      <h2 id="smtp-heading" className="text-base font-semibold text-slate-900">
        SMTP
      </h2>
      <p className="mt-1 max-w-3xl text-sm text-slate-600">
        Applications that only speak SMTP (WordPress, Django, Rails, Nextcloud, printers) send through the SMTP gateway with these settings. The password is a
        sending access key; every rule of the API applies.
      </p>
      <div className="mt-4 max-w-2xl">
        <LoadedSmtpSettings />
      </div>
    </section>
  );
}

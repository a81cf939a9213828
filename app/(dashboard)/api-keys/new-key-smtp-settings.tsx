import { LoadedSmtpSettings } from './loaded-smtp-settings';

/** A new sending key's SMTP login, complete with its secret: the one moment all of it can be copied. */
export function NewKeySmtpSettings({ secret }: { secret: string }) {
  return (
    <section aria-labelledby="new-key-smtp-heading" className="rounded-lg border border-slate-200 px-4 py-3" data-testid="new-key-smtp">
      <h3 id="new-key-smtp-heading" className="text-sm font-semibold text-slate-900">
        SMTP settings
      </h3>
      <p className="mt-0.5 text-xs text-slate-500">For applications that send over SMTP: this key is the password.</p>
      <div className="mt-2">
        <LoadedSmtpSettings secret={secret} />
      </div>
    </section>
  );
}

'use client';

import Link from 'next/link';
import { SelectField, TextField } from '../../../components/field';
import { ToggleSwitch } from '../../../components/toggle-switch';
import { unpublished } from '../../templates/template-choices';
import { TemplateSelect } from '../../templates/template-select';

/** The grace periods offered (the API takes any whole number of days from 1 to 90). */
const GRACE_DAYS = [3, 7, 14, 30, 60, 90];
export const DEFAULT_GRACE_DAYS = 14;

/** The re-engagement email as the form holds it. */
export interface ReengagementDraft {
  on: boolean;
  templateId: string;
  from: string;
  graceDays: number;
}

const daysWords = (days: number) => (days === 1 ? '1 day' : `${days} days`);

/**
 * The last email before sunset (docs/audiences.md, "Re-engagement"): a published template, the
 * sender on a verified domain, and how long a contact has to open or click it.
 */
export function ReengagementFields({ draft, onChange, disabled }: { draft: ReengagementDraft; onChange: (next: ReengagementDraft) => void; disabled: boolean }) {
  const set = (patch: Partial<ReengagementDraft>) => onChange({ ...draft, ...patch });
  const graceChoices = GRACE_DAYS.includes(draft.graceDays) ? GRACE_DAYS : [...GRACE_DAYS, draft.graceDays].sort((a, b) => a - b);
  return (
    <fieldset className="mt-4 space-y-4" data-testid="sunset-reengagement">
      <div className="flex items-start gap-3">
        <ToggleSwitch label="Send a re-engagement email first" checked={draft.on} onChange={(on) => set({ on })} disabled={disabled} describedBy="reengagement-description" />
        <div>
          <p className="text-sm font-medium text-slate-900" aria-hidden>
            Send a re-engagement email first
          </p>
          <p id="reengagement-description" className="text-xs text-slate-500">
            A contact about to be sunset gets this email, and is sunset only if nobody opens or clicks it within the grace period. It is list mail, with one-click unsubscribe.
          </p>
        </div>
      </div>
      {draft.on && (
        <div className="space-y-4 border-l-2 border-slate-100 pl-4">
          <PublishedTemplateSelect value={draft.templateId} onChange={(templateId) => set({ templateId })} disabled={disabled} />
          <TextField
            label="From"
            name="reengagement_from"
            value={draft.from}
            placeholder="News <news@yourdomain.com>"
            onChange={(event) => set({ from: event.target.value })}
            disabled={disabled}
            description="An address on one of your verified domains."
            data-testid="reengagement-from"
          />
          <SelectField label="Grace period" name="grace_days" value={String(draft.graceDays)} onChange={(event) => set({ graceDays: Number(event.target.value) })} disabled={disabled} data-testid="reengagement-grace">
            {graceChoices.map((days) => (
              <option key={days} value={days}>
                {daysWords(days)} to open or click
              </option>
            ))}
          </SelectField>
        </div>
      )}
    </fieldset>
  );
}

/** A published template (one never published has nothing to send); the others are left out. */
function PublishedTemplateSelect({ value, onChange, disabled }: { value: string; onChange: (id: string) => void; disabled: boolean }) {
  return (
    <TemplateSelect
      label="Template"
      name="reengagement_template"
      value={value}
      onChange={onChange}
      disabled={disabled}
      testId="reengagement-template"
      loadErrorId="reengagement-template-load-error"
      unusable={unpublished}
      unusableShown="hidden"
      placeholder="Choose a published template"
      empty={
        <p data-testid="reengagement-no-templates" className="rounded-lg border border-dashed border-slate-300 px-4 py-3 text-sm text-slate-600">
          The email is one of your templates, published.{' '}
          <Link href="/templates/new" className="font-medium text-indigo-600 hover:underline">
            Write one
          </Link>
          .
        </p>
      }
    />
  );
}

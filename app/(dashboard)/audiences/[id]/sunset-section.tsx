'use client';

import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Alert } from '../../../components/alert';
import { Button } from '../../../components/button';
import { CardSection } from '../../../components/card-section';
import { ChoiceSelect, type Choice } from '../../../components/choice-select';
import { ErrorAlert } from '../../../components/error-alert';
import { countOf } from '../../../lib/format';
import { useTRPC } from '../../../lib/trpc';
import { GatedActions } from '../../create-gate/gated-actions';
import { useCreateGate } from '../../create-gate/use-create-gate';
import type { Segment } from '../types';
import { useInvalidateAudiences } from '../use-invalidate-audiences';
import { DEFAULT_GRACE_DAYS, ReengagementFields, type ReengagementDraft } from './reengagement-fields';

/** The periods offered (the API takes any whole number of months from 1 to 36). */
const PERIODS = [1, 2, 3, 6, 9, 12, 18, 24, 36];
/** What the preview asks while the setting is off and nothing is chosen: the server's own default. */
const DEFAULT_MONTHS = 12;

const monthsWords = (months: number) => (months === 1 ? '1 month' : `${months} months`);

function choicesWith(saved: number | null): Choice<string>[] {
  const periods = saved !== null && !PERIODS.includes(saved) ? [...PERIODS, saved].sort((a, b) => a - b) : PERIODS;
  return [{ value: 'off', label: 'Off' }, ...periods.map((months) => ({ value: String(months), label: `After ${monthsWords(months)} without a human open or click` }))];
}

function draftOf(saved: Segment['sunsetReengagement']): ReengagementDraft {
  return saved ? { on: true, templateId: saved.templateId ?? '', from: saved.from, graceDays: saved.graceDays } : { on: false, templateId: '', from: '', graceDays: DEFAULT_GRACE_DAYS };
}

/** What the count of members due means: sunset at once, or mailed first when the re-engagement email is on. */
function dueWords(unsaved: boolean, reengagementOn: boolean): string {
  if (reengagementOn) return unsaved ? 'would be mailed first, then sunset unless they open' : 'due: mailed first, sunset after the grace period';
  return unsaved ? 'would be sunset' : 'sunset by it';
}

const sameDraft = (a: ReengagementDraft, b: ReengagementDraft) => a.on === b.on && (!a.on || (a.templateId === b.templateId && a.from.trim() === b.from.trim() && a.graceDays === b.graceDays));

/**
 * The audience's sunset by human engagement (docs/audiences.md, "Sunset"): the setting, how many
 * contacts the chosen period would sunset if the daily run came now (asked again at each choice,
 * before anything is saved), and how many are sunset now.
 */
export function SunsetSection({ audience }: { audience: Segment }) {
  const trpc = useTRPC();
  const invalidate = useInvalidateAudiences();
  const saved = audience.sunsetAfterMonths;
  const [choice, setChoice] = useState(saved === null ? 'off' : String(saved));
  const chosen = choice === 'off' ? null : Number(choice);
  const preview = useQuery({ ...trpc.audiences.sunsetPreview.queryOptions({ id: audience.id, months: chosen ?? saved ?? DEFAULT_MONTHS }), placeholderData: keepPreviousData });
  const update = useMutation(trpc.segments.update.mutationOptions({ onSuccess: () => invalidate() }));
  const gate = useCreateGate({ procedure: 'segments.update', liveOnly: 'Audiences are shared by Live and Test mode: change the sunset in Live.' });
  const savedDraft = draftOf(audience.sunsetReengagement);
  const [reengagement, setReengagement] = useState(savedDraft);
  const reengagementUnsaved = !sameDraft(reengagement, savedDraft);
  const unsaved = chosen !== saved || reengagementUnsaved;
  const failure = audience.sunsetReengagement?.error;
  const formId = `sunset-${audience.id}`;

  return (
    <CardSection
      testId="audience-sunset"
      title="Sunset"
      description="Contacts nobody has opened or clicked for this long are sunset in this audience: broadcasts skip them until they open or click again, or opt in again. Opens by privacy proxies and scanners do not count; a contact who never opened is counted from when it joined."
      action={
        <GatedActions gate={gate}>
          <Button type="submit" form={formId} loading={update.isPending} disabled={gate.disabled || !unsaved} aria-describedby={gate.noteId} data-testid="sunset-save">
            Save
          </Button>
        </GatedActions>
      }
    >
      <form
        id={formId}
        className="mt-4 max-w-md"
        onSubmit={(event) => {
          event.preventDefault();
          update.mutate({
            id: audience.id,
            sunset_after_months: chosen,
            // Sent only when changed: an unchanged email is not checked again at each change of the period.
            ...(reengagementUnsaved
              ? { sunset_reengagement: reengagement.on ? { template_id: reengagement.templateId, from: reengagement.from.trim(), grace_days: reengagement.graceDays } : null }
              : {}),
          });
        }}
      >
        <ChoiceSelect label="Period" choices={choicesWith(saved)} value={choice} onChange={setChoice} disabled={gate.disabled} data-testid="sunset-months" />
        {chosen !== null && <ReengagementFields draft={reengagement} onChange={setReengagement} disabled={gate.disabled} />}
      </form>
      {failure && (
        <Alert tone="warning" title="The last run could not send the re-engagement email" className="mt-4">
          <span data-testid="reengagement-error">{failure}</span> Nobody is sunset without it until it can be sent.
        </Alert>
      )}
      <dl className="mt-5 grid gap-x-6 gap-y-4 border-t border-slate-100 pt-4 sm:grid-cols-3" aria-busy={preview.isFetching}>
        <div className="min-w-0">
          <dt className="text-xs font-medium tracking-wide text-slate-500 uppercase">{unsaved ? 'With this setting' : 'With the saved setting'}</dt>
          <dd className="mt-1 text-sm text-slate-900" data-testid="sunset-preview" data-count={chosen !== null && preview.data ? preview.data.wouldSunset : undefined}>
            {chosen === null ? (
              <span className="text-slate-500">{saved === null ? 'Choose a period to see how many contacts it would sunset.' : 'Turning it off brings every sunset contact back.'}</span>
            ) : preview.data ? (
              <>
                <span className="text-2xl font-semibold tabular-nums">{countOf(preview.data.wouldSunset, 'contact')}</span> {dueWords(unsaved, reengagement.on)}
                <span className="block text-xs text-slate-500">of {countOf(preview.data.subscribed, 'subscribed contact')}, if the daily run came now</span>
              </>
            ) : (
              <span className="text-slate-500">Counting…</span>
            )}
          </dd>
        </div>
        <div className="min-w-0">
          <dt className="text-xs font-medium tracking-wide text-slate-500 uppercase">Sunset now</dt>
          <dd className="mt-1 text-2xl font-semibold text-slate-900 tabular-nums" data-testid="sunset-now" data-count={preview.data?.sunsetNow}>
            {preview.data ? countOf(preview.data.sunsetNow, 'contact') : '…'}
          </dd>
        </div>
        <div className="min-w-0">
          <dt className="text-xs font-medium tracking-wide text-slate-500 uppercase">In grace period</dt>
          <dd className="mt-1 text-sm text-slate-900" data-testid="sunset-reengaged" data-count={preview.data?.reengagedNow}>
            <span className="text-2xl font-semibold tabular-nums">{preview.data ? countOf(preview.data.reengagedNow, 'contact') : '…'}</span>
            <span className="block text-xs text-slate-500">sent the re-engagement email, waiting for an open or click</span>
          </dd>
        </div>
      </dl>
      {preview.isError && (
        <div className="mt-4">
          <ErrorAlert error={preview.error} fallbackTitle="Could not count the contacts" />
        </div>
      )}
      {update.isError && (
        <div className="mt-4">
          <ErrorAlert error={update.error} fallbackTitle="Could not save the sunset" />
        </div>
      )}
    </CardSection>
  );
}

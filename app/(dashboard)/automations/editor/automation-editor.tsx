'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useMemo, useState } from 'react';
import { ErrorAlert } from '../../../components/error-alert';
import { Button, buttonClasses } from '../../../components/button';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { TextField } from '../../../components/field';
import { PageHeader } from '../../../components/page-header';
import { UnsavedChangesGuard } from '../../../components/unsaved-changes-guard';
import { describeError } from '../../../lib/errors';
import { useDashboardMode } from '../../../lib/dashboard-mode';
import { useMay } from '../../../lib/use-role';
import { useTRPC } from '../../../lib/trpc';
import { BackToAutomations } from '../back-to-automations';
import { definitionOf, flowOf, stepOfError, type Flow } from '../flow';
import { STEP_KINDS } from '../step-kinds';
import { AutomationStatusBadge } from '../status-badge';
import type { Automation } from '../types';
import { useInvalidateAutomations } from '../use-invalidate-automations';
import { FlowList } from './flow-list';
import { TestRunButton, TestRunDialog } from './test-run-dialog';

const NEW_FLOW: Flow = [{ kind: 'step', step: { key: 'trigger', type: 'trigger', config: STEP_KINDS.trigger.initial() } }];

/** A refusal that names a step is shown on that step; any other above the steps. */
function splitError(error: unknown): { byStep: Record<string, string>; other: unknown } {
  if (!error) return { byStep: {}, other: null };
  const { message } = describeError(error);
  const key = stepOfError(message);
  return key ? { byStep: { [key]: message }, other: null } : { byStep: {}, other: error };
}

type Dialog = 'test' | 'stop' | 'delete' | null;

/**
 * The editor of an automation, new or saved: its name, then its steps top to bottom from the
 * trigger, each branching step's two branches indented under it. Saving sends the whole definition
 * (a new version); the server's refusal naming a step shows on that step.
 */
export function AutomationEditor({ automation }: { automation?: Automation }) {
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const invalidate = useInvalidateAutomations();
  const mode = useDashboardMode();
  const mayWrite = useMay('automations.update') && mode === 'live';
  const mayTest = useMay('automations.testRun');
  const saved = useMemo(() => (automation ? { name: automation.name, flow: flowOf(automation) } : { name: '', flow: NEW_FLOW }), [automation]);
  const [name, setName] = useState(saved.name);
  const [flow, setFlow] = useState<Flow>(saved.flow);
  const [dialog, setDialog] = useState<Dialog>(null);
  const figures = useQuery({ ...trpc.automationRuns.figures.queryOptions({ id: automation?.id ?? '' }), enabled: automation !== undefined, refetchInterval: 5_000 });

  const onSaved = (next: Automation) => {
    void invalidate();
    queryClient.setQueryData(trpc.automations.get.queryKey({ id: next.id }), next);
  };
  const create = useMutation(trpc.automations.create.mutationOptions({ onSuccess: (made) => (onSaved(made), router.replace(`/automations/${made.id}`)) }));
  const update = useMutation(trpc.automations.update.mutationOptions({ onSuccess: onSaved }));
  const setStatus = useMutation(trpc.automations.update.mutationOptions({ onSuccess: onSaved }));
  const duplicate = useMutation(trpc.automations.duplicate.mutationOptions({ onSuccess: (copy) => (onSaved(copy), router.push(`/automations/${copy.id}`)) }));
  const stop = useMutation(trpc.automations.stop.mutationOptions({ onSuccess: (next) => (onSaved(next), setDialog(null)) }));
  const remove = useMutation(trpc.automations.delete.mutationOptions({ onSuccess: () => (void invalidate(), router.replace('/automations')) }));

  const dirty = name !== saved.name || JSON.stringify(definitionOf(flow)) !== JSON.stringify(definitionOf(saved.flow));
  const saveError = splitError(create.error ?? update.error);
  const statusError = splitError(setStatus.error);
  const errors = { ...statusError.byStep, ...saveError.byStep };
  const waiting = Object.fromEntries((figures.data?.atStep ?? []).map((at) => [at.stepKey, at.runs]));
  const edit = (next: Flow) => {
    setFlow(next);
    if (create.isError) create.reset();
    if (update.isError) update.reset();
    if (setStatus.isError) setStatus.reset();
  };
  const save = () => {
    const definition = definitionOf(flow);
    if (automation) update.mutate({ id: automation.id, name: name.trim(), ...definition });
    else create.mutate({ name: name.trim(), ...definition });
  };
  const saving = create.isPending || create.isSuccess || update.isPending;

  return (
    <div className="space-y-6" data-testid="automation-editor">
      <BackToAutomations />
      <PageHeader
        title={automation ? automation.name : 'New automation'}
        description={
          automation ? (
            <span className="flex flex-wrap items-center gap-2">
              <AutomationStatusBadge status={automation.status} />
              <span>Version {automation.version}</span>
              <Link href={`/automations/${automation.id}/runs`} className="font-medium text-indigo-600 hover:underline" data-testid="runs-link">
                Runs{figures.data ? ` (${figures.data.runs.running} running)` : ''}
              </Link>
            </span>
          ) : (
            'A trigger, then the steps each contact is taken through. It is saved disabled: enable it once it is ready.'
          )
        }
        actions={
          <div className="flex flex-wrap gap-2">
            {automation && mayTest && <TestRunButton onClick={() => setDialog('test')} />}
            {automation && mayWrite && (
              <Button
                variant="secondary"
                loading={setStatus.isPending}
                disabled={dirty}
                title={dirty ? 'Save your changes first' : undefined}
                data-testid="toggle-status"
                onClick={() => setStatus.mutate({ id: automation.id, status: automation.status === 'enabled' ? 'disabled' : 'enabled' })}
              >
                {automation.status === 'enabled' ? 'Disable' : 'Enable'}
              </Button>
            )}
            {mayWrite && (
              <Button onClick={save} loading={saving} disabled={!dirty || name.trim() === ''} data-testid="save-automation">
                {automation ? 'Save' : 'Create automation'}
              </Button>
            )}
          </div>
        }
      />

      <div className="max-w-md">
        <TextField label="Name" value={name} onChange={(event) => setName(event.target.value)} readOnly={!mayWrite} placeholder="Welcome series" data-testid="automation-name" maxLength={100} />
      </div>

      {saveError.other ? <ErrorAlert error={saveError.other} fallbackTitle="Could not save the automation" /> : null}
      {statusError.other ? <ErrorAlert error={statusError.other} fallbackTitle="Could not change its status" /> : null}
      {duplicate.error ? <ErrorAlert error={duplicate.error} fallbackTitle="Could not duplicate the automation" /> : null}

      <FlowList context={{ flow, onChange: edit, errors, waiting, readOnly: !mayWrite }} list={flow} path={[]} />

      {automation && mayWrite && (
        <section className="flex flex-wrap gap-2 border-t border-slate-200 pt-6" aria-label="More actions">
          <Button variant="secondary" loading={duplicate.isPending} onClick={() => duplicate.mutate({ id: automation.id })} data-testid="duplicate-automation">
            Duplicate
          </Button>
          <Button variant="secondary" onClick={() => setDialog('stop')} data-testid="stop-automation">
            Stop
          </Button>
          <Button variant="danger" onClick={() => setDialog('delete')} data-testid="delete-automation">
            Delete
          </Button>
        </section>
      )}

      {automation && dialog === 'test' && <TestRunDialog automationId={automation.id} onClose={() => setDialog(null)} />}
      {automation && (
        <ConfirmDialog
          open={dialog === 'stop'}
          onClose={() => setDialog(null)}
          title="Stop this automation?"
          testId="stop-dialog"
          description="It is disabled, and every run under way ends now (cancelled). Contacts waiting at a step get nothing more from it."
          confirmLabel="Stop"
          onConfirm={() => stop.mutate({ id: automation.id })}
          pending={stop.isPending}
          error={stop.error}
          errorTitle="Could not stop the automation"
        />
      )}
      {automation && (
        <ConfirmDialog
          open={dialog === 'delete'}
          onClose={() => setDialog(null)}
          title="Delete this automation?"
          testId="delete-dialog"
          description="Its runs under way end, and it is gone from the list. The emails it sent stay in your email history."
          confirmLabel="Delete"
          onConfirm={() => remove.mutate({ id: automation.id })}
          pending={remove.isPending}
          loading={remove.isPending || remove.isSuccess}
          error={remove.error}
          errorTitle="Could not delete the automation"
        />
      )}
      {!automation && (
        <div>
          <Link href="/automations" className={buttonClasses('secondary')}>
            Cancel
          </Link>
        </div>
      )}
      <UnsavedChangesGuard when={dirty && !saving && !remove.isSuccess} what="this automation" />
    </div>
  );
}

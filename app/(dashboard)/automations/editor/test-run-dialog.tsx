'use client';

import { useMutation } from '@tanstack/react-query';
import { CircleCheckIcon } from 'lucide-react';
import { useState } from 'react';
import { Alert } from '../../../components/alert';
import { Button } from '../../../components/button';
import { Dialog } from '../../../components/dialog';
import { TextField } from '../../../components/field';
import { FormDialog } from '../../../components/form-dialog';
import { switchDashboardMode, useDashboardMode } from '../../../lib/dashboard-mode';
import { useTRPC } from '../../../lib/trpc';

/**
 * Starts one test run of the saved version for one contact, whatever the trigger and the status
 * (docs/automations.md, "Dashboard"): its emails are simulated, and it is shown in Test mode.
 */
export function TestRunDialog({ automationId, onClose }: { automationId: string; onClose: () => void }) {
  const trpc = useTRPC();
  const mode = useDashboardMode();
  const [contact, setContact] = useState('');
  const start = useMutation(trpc.automations.testRun.mutationOptions());
  const runsHref = `/automations/${automationId}/runs`;

  if (start.data) {
    const { contactEmail } = start.data;
    const seeIt = () => {
      if (mode === 'test') window.location.assign(runsHref);
      else {
        // Test runs are test data: the runs page shows them in Test mode.
        window.history.pushState(null, '', runsHref);
        switchDashboardMode('test');
      }
    };
    return (
      <Dialog open onClose={onClose} title="Test run started" testId="test-run-dialog">
        <div className="space-y-5">
          <Alert tone="info" title={`A test run for ${contactEmail} started`} icon={<CircleCheckIcon className="mt-0.5 size-4 shrink-0" />}>
            It takes the steps of the saved version now; its emails are simulated, never delivered. Test runs are shown in Test mode.
          </Alert>
          <div className="flex justify-end gap-2">
            <Button variant="secondary" onClick={onClose}>
              Close
            </Button>
            <Button onClick={seeIt}>{mode === 'test' ? 'See the run' : 'See it in Test mode'}</Button>
          </div>
        </div>
      </Dialog>
    );
  }

  return (
    <FormDialog
      title="Test run"
      description="One run of the saved version for one contact, whatever the trigger says and even while the automation is disabled. Its emails are simulated, as a test key's."
      testId="test-run-dialog"
      onClose={onClose}
      onSubmit={() => start.mutate({ id: automationId, contact: contact.trim() })}
      submitLabel="Start test run"
      submitDisabled={contact.trim() === ''}
      pending={start.isPending}
      error={start.error}
      errorTitle="Could not start the test run"
    >
      <TextField label="Contact" placeholder="ada@example.com or a contact id" value={contact} onChange={(event) => setContact(event.target.value)} autoFocus data-testid="test-run-contact" />
    </FormDialog>
  );
}

export const TestRunButton = ({ onClick }: { onClick: () => void }) => (
  <Button variant="secondary" onClick={onClick} data-testid="test-run">
    Test run
  </Button>
);

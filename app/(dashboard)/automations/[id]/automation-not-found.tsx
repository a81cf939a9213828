import { WorkflowIcon } from 'lucide-react';
import { NotFoundState } from '../../../components/not-found-state';

/** An unknown id, another organization's automation, or one deleted meanwhile. */
export function AutomationNotFound() {
  return (
    <NotFoundState testId="automation-not-found" icon={<WorkflowIcon className="size-6" />} title="Automation not found" backHref="/automations" backLabel="Back to automations">
      This automation does not exist on your account. It may have been deleted.
    </NotFoundState>
  );
}

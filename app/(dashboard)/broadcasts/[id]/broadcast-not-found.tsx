import { MegaphoneIcon } from 'lucide-react';
import { NotFoundState } from '../../../components/not-found-state';

/** An unknown id, a broadcast of another organization, or one deleted meanwhile. */
export function BroadcastNotFound() {
  return (
    <NotFoundState testId="broadcast-not-found" icon={<MegaphoneIcon className="size-6" />} title="Broadcast not found" backHref="/broadcasts" backLabel="Back to broadcasts">
      This broadcast does not exist on your account. It may have been deleted.
    </NotFoundState>
  );
}

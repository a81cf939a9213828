import type { ReactNode } from 'react';
import { MessagesSquareIcon } from 'lucide-react';
import { EmptyState } from '../../../components/empty-state';

/** No topic yet: what topics are for, and the way to make one. */
export function TopicsEmpty({ action }: { action: ReactNode }) {
  return (
    <EmptyState testId="topics-empty" icon={<MessagesSquareIcon className="size-6" />} title="No topics yet" action={action}>
      A topic is one kind of mail you send, such as product news, event invitations or a weekly digest. A contact may leave one topic and keep
      receiving the others, instead of unsubscribing from everything. Each topic is opt-in (contacts receive it until they leave) or opt-out (they
      receive it only once they join).
    </EmptyState>
  );
}

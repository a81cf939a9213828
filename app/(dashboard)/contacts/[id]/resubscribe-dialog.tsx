import { Alert } from '../../../components/alert';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import type { ContactProfile } from '../types';

/** Before a contact who left everything is subscribed again: only with their consent. */
export function ResubscribeDialog({ contact, open, pending, error, onConfirm, onClose }: {
  contact: ContactProfile;
  open: boolean;
  pending: boolean;
  error: unknown;
  onConfirm: () => void;
  onClose: () => void;
}) {
  return (
    <ConfirmDialog
      open={open}
      onClose={onClose}
      testId="resubscribe-dialog"
      title="Subscribe again"
      description={
        <>
          Let <strong className="font-semibold break-all text-slate-700">{contact.email}</strong> receive broadcasts again?
        </>
      }
      confirmLabel="Subscribe again"
      confirmVariant="primary"
      onConfirm={onConfirm}
      pending={pending}
      error={error}
      errorTitle="Could not subscribe the contact again"
    >
      <Alert tone="warning" title="Only with their consent">
        <span data-testid="resubscribe-warning">
          This person unsubscribed from everything. Subscribe them again only if they asked you to, for example by signing up again. Sending broadcasts
          to someone who unsubscribed breaks their choice and privacy law (GDPR, ePrivacy), and complaints hurt the delivery of all your email.
        </span>
      </Alert>
      <p className="text-sm text-slate-600">They receive the broadcasts of the segments they are subscribed in; their subscription in each segment is unchanged.</p>
    </ConfirmDialog>
  );
}

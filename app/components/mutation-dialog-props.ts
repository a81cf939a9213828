/** What ConfirmDialog needs of the one mutation it confirms. */
interface ConfirmedMutation {
  isPending: boolean;
  isSuccess: boolean;
  error: unknown;
  reset(): void;
}

/**
 * ConfirmDialog's props for a dialog that runs one mutation: busy while it runs and until the page
 * moves on after success, its error shown, and closing (never while it runs) forgets the outcome.
 */
export function mutationDialogProps(mutation: ConfirmedMutation, onClose: () => void) {
  return {
    onClose: () => {
      if (mutation.isPending) return;
      mutation.reset();
      onClose();
    },
    pending: mutation.isPending,
    loading: mutation.isPending || mutation.isSuccess,
    error: mutation.error,
  };
}

/**
 * The `onSuccess` of a dialog's mutation: refetch what it changed, then close. The dialog stays
 * busy until the page behind it shows the change, so it never closes onto stale data.
 */
export function refetchThenClose(refetch: () => Promise<unknown>, onClose: () => void) {
  return async () => {
    await refetch();
    onClose();
  };
}

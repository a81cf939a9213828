import type { Metadata } from 'next';
import { Suspense } from 'react';
import { ResetPasswordForm } from './reset-password-form';

export const metadata: Metadata = { title: 'Choose a new password' };

export default function ResetPasswordPage() {
  // The token is in the query string, read in the browser.
  return (
    <Suspense>
      <ResetPasswordForm />
    </Suspense>
  );
}

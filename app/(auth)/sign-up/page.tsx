import type { Metadata } from 'next';
import { Suspense } from 'react';
import { SignUpForm } from './sign-up-form';

export const metadata: Metadata = { title: 'Create your account' };

export default function SignUpPage() {
  // The form reads the invited address from the URL, known only in the browser: hence the boundary.
  return (
    <Suspense>
      <SignUpForm />
    </Suspense>
  );
}

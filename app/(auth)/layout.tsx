import type { ReactNode } from 'react';
import { Logo } from '../components/logo';
import { RedirectIfSignedIn } from './redirect-if-signed-in';

export default function AuthLayout({ children }: { children: ReactNode }) {
  return (
    <main className="flex min-h-screen flex-col items-center justify-center px-4 py-12">
      <RedirectIfSignedIn />
      <Logo className="mb-8 text-lg" />
      <div className="w-full max-w-sm rounded-xl bg-white p-8 shadow-sm ring-1 ring-slate-200">{children}</div>
      <p className="mt-6 text-center text-xs text-slate-500">Email sending, processed and stored in the EU.</p>
    </main>
  );
}

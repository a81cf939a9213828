import type { Metadata } from 'next';
import { Logo } from '../../components/logo';
import { InvitationView } from './invitation-view';

export const metadata: Metadata = { title: 'Invitation' };

/** Where a mailed invitation leads: join as the signed-in person, or sign in or sign up first. */
export default async function InvitationPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  return (
    <main className="flex min-h-screen flex-col items-center justify-center px-4 py-12">
      <Logo className="mb-8 text-lg" />
      <div className="w-full max-w-md rounded-xl bg-white p-8 shadow-sm ring-1 ring-slate-200">
        <InvitationView token={token} />
      </div>
    </main>
  );
}

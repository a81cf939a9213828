import type { Metadata } from 'next';
import { PageHeader } from '../../components/page-header';
import { TwoFactorSection } from './two-factor-section';

export const metadata: Metadata = { title: 'Your account' };

/** The signed-in person's own account: how they sign in. */
export default function AccountPage() {
  return (
    <>
      <PageHeader title="Your account" description="How you sign in to EU Mail." />
      <div className="space-y-6">
        <TwoFactorSection />
      </div>
    </>
  );
}

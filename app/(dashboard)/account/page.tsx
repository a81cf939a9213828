import type { Metadata } from 'next';
import { PageHeader } from '../../components/page-header';
import { PasswordSection } from './password-section';
import { SessionsSection } from './sessions-section';
import { TwoFactorSection } from './two-factor-section';

export const metadata: Metadata = { title: 'Your account' };

/** The signed-in person's own account, one section per concern, each in its own file. */
export default function AccountPage() {
  return (
    <>
      <PageHeader
        title="Your account"
        description="Your password, two-factor sign-in and where you are signed in. These are yours, not your organization's: each person in a team manages their own."
      />
      <div className="space-y-6" data-testid="account-page">
        <PasswordSection />
        <TwoFactorSection />
        <SessionsSection />
      </div>
    </>
  );
}

import type { Metadata } from 'next';
import { PageHeader } from '../../components/page-header';
import { PasswordSection } from './password-section';
import { SessionsSection } from './sessions-section';

export const metadata: Metadata = { title: 'Your account' };

/** The signed-in person's own account, one section per concern, each in its own file. */
export default function AccountPage() {
  return (
    <>
      <PageHeader title="Your account" description="Your password and where you are signed in. These are yours, not your organization's: each person in a team manages their own." />
      <div className="space-y-6" data-testid="account-page">
        <PasswordSection />
        {/* Two-factor sign-in (issue 32 point 2): its section goes here, between the password and the sessions. */}
        <SessionsSection />
      </div>
    </>
  );
}

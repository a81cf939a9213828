import type { Metadata } from 'next';
import { PageHeader } from '../../components/page-header';
import { DeleteOrganization } from './delete-organization';
import { LeaveOrganization } from './leave-organization';
import { NotificationAddress } from './notification-address';
import { OrganizationName } from './organization-name';
import { TwoFactorRequirement } from './two-factor-requirement';

export const metadata: Metadata = { title: 'Settings' };

/** The organization's settings. */
export default function SettingsPage() {
  return (
    <>
      <PageHeader title="Settings" description="Your organization’s name, where its notices go, and the rules that apply to everyone in it." />
      <div className="space-y-6">
        <OrganizationName />
        <NotificationAddress />
        <TwoFactorRequirement />
        <LeaveOrganization />
        <DeleteOrganization />
      </div>
    </>
  );
}

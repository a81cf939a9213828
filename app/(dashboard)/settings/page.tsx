import type { Metadata } from 'next';
import { PageHeader } from '../../components/page-header';
import { TwoFactorRequirement } from './two-factor-requirement';

export const metadata: Metadata = { title: 'Settings' };

/** The organization's settings. */
export default function SettingsPage() {
  return (
    <>
      <PageHeader title="Settings" description="Rules that apply to everyone in your organization." />
      <div className="space-y-6">
        <TwoFactorRequirement />
      </div>
    </>
  );
}

'use client';

import { useQuery } from '@tanstack/react-query';
import { switchOrganization } from '../lib/active-organization';
import { useTRPC } from '../lib/trpc';
import { ROLE_LABELS } from './team/role-words';

/** For a person in several organizations: which one the dashboard acts for. Nothing for a person in one. */
export function OrganizationSwitcher({ currentId }: { currentId: string }) {
  const trpc = useTRPC();
  const { data } = useQuery(trpc.organization.memberships.queryOptions({}));
  if (!data || data.length < 2) return null;
  return (
    <select
      aria-label="Organization"
      data-testid="organization-switcher"
      value={currentId}
      onChange={(event) => switchOrganization(event.target.value)}
      className="mt-1 mb-1 block w-full rounded-md border-0 bg-white py-1 pr-8 pl-2 text-xs text-slate-700 shadow-sm ring-1 ring-slate-300 ring-inset focus:ring-2 focus:ring-indigo-600"
    >
      {data.map((organization) => (
        <option key={organization.id} value={organization.id}>
          {organization.name} ({ROLE_LABELS[organization.role]})
        </option>
      ))}
    </select>
  );
}

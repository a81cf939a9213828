'use client';

import { Button } from '../../components/button';
import { ErrorAlert } from '../../components/error-alert';
import { PageHeader } from '../../components/page-header';
import { ActivitiesSection } from './activities-section';
import { DownloadJsonButton } from './download-json-button';
import { OverviewSection } from './overview-section';
import { PrivacySkeleton } from './privacy-skeleton';
import { RetentionSection } from './retention-section';
import { SecuritySection } from './security-section';
import { SubProcessorsSection } from './sub-processors-section';
import { useProcessingActivities } from './use-processing-activities';

export function PrivacyView() {
  const query = useProcessingActivities();
  const record = query.data;

  return (
    <>
      <PageHeader
        title="Privacy record"
        description="Your organization's record of processing activities (GDPR Art. 30): what this service processes for you, why, for how long, who else is involved, and how it is protected. Only you, the owner, can read it here; a full_access key reads it at GET /organization/processing-activities."
        actions={record ? <DownloadJsonButton record={record} /> : undefined}
      />

      {query.isPending && <PrivacySkeleton />}

      {query.isError && (
        <ErrorAlert
          error={query.error}
          fallbackTitle="Could not load the privacy record"
          action={
            <Button variant="secondary" size="sm" onClick={() => void query.refetch()} loading={query.isFetching}>
              Try again
            </Button>
          }
        />
      )}

      {record && (
        <div className="space-y-6" data-testid="privacy-record">
          <OverviewSection record={record} />
          <RetentionSection retention={record.retention} />
          <ActivitiesSection activities={record.activities} />
          <div className="grid gap-6 lg:grid-cols-3">
            <div className="lg:col-span-1">
              <SubProcessorsSection subProcessors={record.subProcessors} />
            </div>
            <div className="lg:col-span-2">
              <SecuritySection measures={record.securityMeasures} />
            </div>
          </div>
        </div>
      )}
    </>
  );
}

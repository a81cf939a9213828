import { Badge } from '../../components/badge';
import { CopyButton } from '../../components/copy-button';
import { formatDateTime } from '../../lib/format';
import { Fact, PrivacySection } from './privacy-section';
import type { ProcessingActivities } from './types';

const ROLE_WORDS: Record<ProcessingActivities['processor']['hosts'][number]['role'], string> = {
  service: 'API and dashboard',
  mail_host: 'Mail host',
  relay: 'SMTP relay',
  recipient_mx: 'Receiving server',
};

/** Who is who: your organization decides, this service processes on its behalf, in the EU. */
export function OverviewSection({ record }: { record: ProcessingActivities }) {
  return (
    <PrivacySection id="overview" title="Controller and processor" description="Your organization decides what is sent, to whom and why; this service processes the data on its behalf.">
      <dl className="divide-y divide-slate-100">
        <Fact term="Controller">
          <span className="font-medium">{record.controller.name}</span>
          <span className="block text-slate-500">Contact: {record.controller.contact}</span>
        </Fact>
        <Fact term="Processor">
          <span className="font-medium">{record.processor.name}</span>
          <span className="mt-1 flex items-center gap-2">
            <code className="truncate rounded bg-slate-100 px-1.5 py-0.5 text-xs" data-testid="privacy-base-url">
              {record.processor.baseUrl}
            </code>
            <CopyButton text={record.processor.baseUrl} size="sm" iconOnly describe="API base URL" />
          </span>
        </Fact>
        <Fact term="Region">
          <Badge tone="blue">{record.region}</Badge>
          <span className="ml-2 text-slate-500">Processing, storage and delivery stay in the European Union.</span>
        </Fact>
        <Fact term="Hosts">
          <ul className="space-y-1">
            {record.processor.hosts.map((host) => (
              <li key={`${host.role}-${host.host}`}>
                <span className="font-mono text-xs">{host.host}</span> <span className="text-slate-500">· {ROLE_WORDS[host.role]}</span>
              </li>
            ))}
          </ul>
        </Fact>
        <Fact term="Generated">{formatDateTime(record.generatedAt)}</Fact>
      </dl>
    </PrivacySection>
  );
}

import { cx } from '../../../components/cx';
import { formatPreciseDateTime } from '../../../lib/format';

/** Labels for the data keys the pipeline writes; any other key is shown under its own name. */
const LABELS: Record<string, string> = {
  scheduledAt: 'Send time',
  response: 'Server response',
  diagnostic: 'Diagnostic',
  diagnosticCode: 'Diagnostic',
  smtpCode: 'SMTP code',
  reason: 'Reason',
  url: 'Link',
  userAgent: 'User agent',
  ip: 'IP address',
  attempt: 'Attempt',
  attempts: 'Attempts',
  nextAttemptAt: 'Next attempt',
  host: 'Host',
  via: 'Via',
  // Where a delivery outcome was learnt: the receiving server's SMTP reply, or a later report (DSN, ARF).
  source: 'Learnt from',
  status: 'Status code',
  messageId: 'Message-ID',
  reportId: 'Report ID',
  reportedRecipient: 'Reported recipient',
  feedbackType: 'Feedback type',
  simulated: 'Simulated',
  machine: 'By a machine',
  machineReason: 'Told by',
};

/** Why an open or click was a machine's (server/services/tracking/machine.ts, docs/tracking.md). */
const MACHINE_REASONS: Record<string, string> = {
  no_user_agent: 'no user agent',
  apple_mail_privacy_protection: 'Apple Mail Privacy Protection',
  bare_user_agent: 'a bare "Mozilla/5.0" user agent',
  gmail_image_proxy: "Gmail's image proxy",
  gmail_content_sampling: "Gmail's content sampling",
  yahoo_mail_proxy: "Yahoo Mail's proxy",
  microsoft_office_link_check: "Microsoft Office's link check",
  proofpoint: 'Proofpoint',
  mimecast: 'Mimecast',
  barracuda: 'Barracuda',
  headless_browser: 'a headless browser',
  automated_client: 'an HTTP library or tool',
  crawler: 'a crawler',
  known_machine_network: 'a network of proxies or scanners',
  opened_at_delivery: 'opened as it was delivered',
  clicked_at_delivery: 'clicked within seconds of delivery',
  every_link_at_once: 'every link clicked at once',
};

/** Values shown in a monospace face: machine text a person may want to copy or search for. */
const MACHINE = new Set(['response', 'diagnostic', 'diagnosticCode', 'url', 'userAgent', 'ip', 'host', 'status', 'messageId', 'reportId']);

const humanize = (key: string) => key.replace(/_/g, ' ').replace(/([a-z])([A-Z])/g, '$1 $2').replace(/^./, (first) => first.toUpperCase());

const ISO_DATE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

function show(value: unknown): string {
  if (typeof value === 'string') return ISO_DATE.test(value) ? formatPreciseDateTime(value) : value;
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'number') return String(value);
  return JSON.stringify(value);
}

/** A clicked link stays text unless it is a web address: never a javascript: or data: link in the dashboard. */
function LinkValue({ url }: { url: string }) {
  if (!/^https?:\/\//i.test(url)) return <>{url}</>;
  return (
    <a href={url} target="_blank" rel="noopener noreferrer nofollow" className="text-indigo-600 hover:underline">
      {url}
    </a>
  );
}

/** What an event's data says: the SMTP response of a bounce, the link of a click, the time of a schedule. */
export function EventDetails({ data }: { data: Record<string, unknown> }) {
  // `bounce` (class and explanation) has its own note above the details: BounceNote.
  const entries = Object.entries(data).filter(([key, value]) => key !== 'bounce' && value !== null && value !== undefined && value !== '');
  if (entries.length === 0) return null;
  return (
    <dl className="mt-1.5 space-y-1 text-xs" data-testid="event-details">
      {entries.map(([key, value]) => (
        <div key={key} className="min-w-0">
          <dt className="inline text-slate-500">{LABELS[key] ?? humanize(key)}: </dt>
          <dd className={cx('inline break-words text-slate-700', MACHINE.has(key) && 'font-mono')}>
            {key === 'url' && typeof value === 'string' ? <LinkValue url={value} /> : key === 'machineReason' && typeof value === 'string' ? (MACHINE_REASONS[value] ?? value) : show(value)}
          </dd>
        </div>
      ))}
    </dl>
  );
}

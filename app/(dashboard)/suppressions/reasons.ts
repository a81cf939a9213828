import type { BadgeTone } from '../../components/badge';
import { CALLER_REASONS, SUPPRESSION_REASONS, type CallerReason, type SuppressionReason } from '@/server/vocabulary/suppression-reasons';

export { CALLER_REASONS, SUPPRESSION_REASONS, type CallerReason, type SuppressionReason };

/** How each reason reads in the table, the filter and the add dialog. */
export const SUPPRESSION_REASON_STYLE: Record<SuppressionReason, { label: string; tone: BadgeTone; description: string }> = {
  bounce: { label: 'Bounce', tone: 'red', description: 'A hard bounce of one of your emails: the address does not exist or refuses mail.' },
  complaint: { label: 'Complaint', tone: 'orange', description: 'The recipient marked one of your emails as spam.' },
  unsubscribe: { label: 'Unsubscribe', tone: 'amber', description: 'The person asked not to be emailed: from your own unsubscribe handling, or another provider’s list.' },
  manual: { label: 'Manual', tone: 'neutral', description: 'Added by you, for any other reason.' },
};

export const isSuppressionReason = (value: string | null | undefined): value is SuppressionReason => (SUPPRESSION_REASONS as readonly string[]).includes(value ?? '');
export const isCallerReason = (value: string | null | undefined): value is CallerReason => (CALLER_REASONS as readonly string[]).includes(value ?? '');

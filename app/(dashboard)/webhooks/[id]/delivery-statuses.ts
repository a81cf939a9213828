import type { BadgeTone } from '../../../components/badge';
import { DELIVERY_STATUSES, type DeliveryStatus } from '@/server/vocabulary/webhook-statuses';

export { DELIVERY_STATUSES, type DeliveryStatus };

export const DELIVERY_STATUS_STYLE: Record<DeliveryStatus, { label: string; tone: BadgeTone }> = {
  pending: { label: 'Pending', tone: 'blue' },
  succeeded: { label: 'Succeeded', tone: 'green' },
  failed: { label: 'Failed', tone: 'red' },
};

export const isDeliveryStatus = (value: string | null | undefined): value is DeliveryStatus => (DELIVERY_STATUSES as readonly string[]).includes(value ?? '');

import type { RouterInputs, RouterOutputs } from '@/server/routers/types';

type WebhooksOutputs = RouterOutputs['webhooks'];

export type WebhookSummary = WebhooksOutputs['list']['data'][number];
export type WebhookHealth = WebhookSummary['health'];
export type Webhook = WebhooksOutputs['get'];
export type CreatedWebhook = WebhooksOutputs['create'];
export type Delivery = WebhooksOutputs['deliveries']['data'][number];
export type DeliveryStatus = Delivery['status'];
export type DeliveryDetail = WebhooksOutputs['delivery'];
export type Attempt = DeliveryDetail['attemptsMade'][number];
/** What `test` and `replay` answer: the delivery's new status and the attempt just made. */
export type ManualAttempt = WebhooksOutputs['test'];
export type ListDeliveriesInput = RouterInputs['webhooks']['deliveries'];

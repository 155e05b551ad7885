/**
 * The back office's answers about the merchant's webhooks (`/api/admin/webhook-endpoints…`, `/webhook-events…`) and
 * the bodies the console sends there, as declared types: server/backoffice/ builds them, the console reads them.
 */
import type { MerchantEventType } from './merchant-events';

/** A webhook endpoint as the back office shows it: never its secret, a hint of it only. */
export interface WebhookEndpointView {
  id: string;
  /** Its scheme and host only (`https://hooks.example.com/…`) for a viewer. */
  url: string;
  /** The event types it gets; empty: every type. */
  types: string[];
  /** `environment`: MERCHANT_WEBHOOK_URL, changed in the environment only. */
  source: 'store' | 'environment';
  enabled: boolean;
  /** Why it gets nothing: its owner disabled it, or it failed for too long. */
  disabled: { reason: 'owner' | 'failing'; since: string } | null;
  secretHints: string[];
  /** Until when the previous secret keeps signing beside the new one; null when none does. */
  rotatingUntil: string | null;
  createdAt: string | null;
}

/** The answer that carries a new secret (added, rotated): the one time the page sees it. */
export type WebhookEndpointWithSecret = WebhookEndpointView & { secret: string };

export interface WebhookEndpointInput {
  url: string;
  types?: MerchantEventType[];
}

/** A test event's attempt (`POST /webhook-endpoints/:id/test`). */
export interface WebhookTestResult {
  eventId: string;
  delivered: boolean;
  at: string;
  /** The endpoint's HTTP status; null when no answer came. */
  status: number | null;
  durationMs: number;
  /** Why it failed, in a few words (`HTTP 500`, `timeout`, `no answer`, `address not allowed`); null when delivered. */
  error: string | null;
}

/** Where an event's delivery to one endpoint stands. */
export interface EventDeliveryView {
  endpointId: string;
  state: 'pending' | 'delivered' | 'failed';
  attempts: number;
  lastStatus: number | null;
  nextAt: string | null;
  deliveredAt: string | null;
}

/** One event of the pull feed, with its deliveries. */
export interface MerchantEventView {
  id: string;
  seq: number;
  type: MerchantEventType;
  createdAt: string;
  data: Record<string, unknown>;
  deliveries: EventDeliveryView[];
}

export interface MerchantEventPage {
  items: MerchantEventView[];
  /** The `after` of the next page. */
  nextCursor: string | null;
}

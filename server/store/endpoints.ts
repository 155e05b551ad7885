/**
 * The merchant's webhook endpoints kept in the store (besides the one of the environment, MERCHANT_WEBHOOK_URL, which
 * is not stored), and the log of each event's deliveries to them (./deliveries). Implemented for both databases in
 * `endpoints-sqlite.ts` and `endpoints-postgres.ts` (the log, written once for both, in `delivery-log.ts`), schema step 11.
 *
 * Rules kept here so both databases agree:
 * - an endpoint gets the events written from its creation on, only the types of its filter (none: every type);
 * - a disabled endpoint gets nothing: the events written while it is disabled are passed over for it, and enabling
 *   it queues those written from then on (the pull feed and a redelivery recover the others). Deliveries queued
 *   before it was disabled wait, and go once it is enabled;
 * - a rotation keeps the previous secret beside the new one until `previousUntil` or until the rotation is finished,
 *   whichever comes first; a second rotation drops the oldest, so an endpoint has two secrets at most;
 * - `failingSince` is the first failed attempt since its last 2xx; an endpoint failing since before the cutoff it is
 *   given is disabled by itself, with the reason `failing`.
 */
import type { WebhookAttempt } from './deliveries';

/** Why an endpoint gets nothing: its owner disabled it, or every attempt failed for too long. */
export interface EndpointDisabled {
  reason: 'owner' | 'failing';
  since: string;
}

export interface NewWebhookEndpoint {
  /** `we_…`. */
  id: string;
  url: string;
  /** The event types it wants; empty: every type. */
  types: readonly string[];
  /** `whsec_…`. */
  secret: string;
  createdAt: string;
}

export interface StoredWebhookEndpoint {
  id: string;
  url: string;
  types: string[];
  secret: string;
  /** The secret before the last rotation, signing too until `previousUntil`. */
  previousSecret: string | null;
  previousUntil: string | null;
  disabled: EndpointDisabled | null;
  /** The first failed attempt since the last 2xx; null when the last attempt was a 2xx (or none was made). */
  failingSince: string | null;
  createdAt: string;
}

/** The secrets an endpoint signs with at `now`: its own, and the previous one while a rotation runs. */
export function signingSecrets(endpoint: StoredWebhookEndpoint, now: Date): string[] {
  const rotating =
    endpoint.previousSecret !== null && endpoint.previousUntil !== null && Date.parse(endpoint.previousUntil) > now.getTime();
  return rotating ? [endpoint.secret, endpoint.previousSecret!] : [endpoint.secret];
}

/** Where one event stands with one endpoint. */
export interface EventDelivery {
  eventSeq: number;
  endpointId: string;
  state: 'pending' | 'delivered' | 'failed';
  /** Attempts since it was last queued (a redelivery starts again from 0). */
  attempts: number;
  lastStatus: number | null;
  /** When it is next tried; null once delivered or given up. */
  nextAt: string | null;
  /** When a 2xx last came for it. */
  deliveredAt: string | null;
}

/** One attempt of an event, to one endpoint. */
export interface EventAttempt extends WebhookAttempt {
  endpointId: string;
}

export interface EndpointStore {
  /** Adds an endpoint whose cursor starts at the end of the feed: it gets the events written from now on. */
  addWebhookEndpoint(endpoint: NewWebhookEndpoint): Promise<StoredWebhookEndpoint>;
  /** Every stored endpoint, oldest first. */
  listWebhookEndpoints(): Promise<StoredWebhookEndpoint[]>;
  getWebhookEndpoint(id: string): Promise<StoredWebhookEndpoint | undefined>;
  /** Disables it, unless it is already disabled (then the first reason and time stay). Undefined: no such endpoint. */
  disableWebhookEndpoint(id: string, disabled: EndpointDisabled): Promise<StoredWebhookEndpoint | undefined>;
  /** Enables it, its failures forgotten, its cursor moved to the end of the feed. Undefined: no such endpoint. */
  enableWebhookEndpoint(id: string): Promise<StoredWebhookEndpoint | undefined>;
  /** Deletes it with its cursor and its deliveries (its attempts stay in the log); false when there was none. */
  deleteWebhookEndpoint(id: string): Promise<boolean>;
  /** Makes `secret` its secret, the current one its previous until `previousUntil`. */
  rotateWebhookEndpointSecret(id: string, secret: string, previousUntil: string): Promise<StoredWebhookEndpoint | undefined>;
  /** Drops the previous secret. */
  finishWebhookEndpointRotation(id: string): Promise<StoredWebhookEndpoint | undefined>;
  /**
   * Notes an attempt's outcome for the endpoint's health, and disables it (reason `failing`, since `at`) when it has
   * been failing since `disableIfFailingSince` or before. True when this call disabled it.
   */
  noteEndpointAttempt(id: string, at: string, delivered: boolean, disableIfFailingSince: string): Promise<boolean>;
}

export type { DeliveryLogStore } from './delivery-log';

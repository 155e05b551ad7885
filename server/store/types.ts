/**
 * What the BFF persists and the two interfaces it persists it through.
 *
 * `Store` is implemented twice with identical behaviour: `openSqliteStore` (one process, a file; the default) and
 * `openPostgresStore` (several BFF instances sharing one database). `StatusHub` tells SSE streams that a checkout has
 * a new event: `createLocalHub` in-process, `createPostgresHub` across instances with LISTEN/NOTIFY. `openStore` in
 * `./index` picks the pair from the configuration.
 *
 * Amounts are integer cents; every date is an ISO-8601 instant, normalised to `toISOString()` form on the way in
 * so SQLite can compare them as text.
 */
import { z } from 'zod';

/** A date-time with `Z` or an offset, stored and returned as `YYYY-MM-DDTHH:mm:ss.sssZ`. */
export const InstantSchema = z.iso.datetime({ offset: true }).transform((value) => new Date(value).toISOString());

export const CheckoutMethodSchema = z.enum(['pix', 'openfinance']);
export type CheckoutMethod = z.infer<typeof CheckoutMethodSchema>;

/** `Creating` exists only between our reservation and the provider's answer; the rest are the provider's states. */
export const CheckoutStateSchema = z.enum(['Creating', 'Created', 'Registered', 'Completed', 'Error', 'Cancelled', 'Reversed']);
export type CheckoutState = z.infer<typeof CheckoutStateSchema>;

/** States in which an order already has its checkout: a new one would charge the payer twice. */
export const RESERVING_STATES = ['Creating', 'Created', 'Registered', 'Completed'] as const satisfies readonly CheckoutState[];
/** States the reconciliation loop re-reads from the provider. */
export const LIVE_STATES = ['Created', 'Registered'] as const satisfies readonly CheckoutState[];

export const EventSourceSchema = z.enum(['create', 'webhook', 'reconcile', 'poll']);
export type EventSource = z.infer<typeof EventSourceSchema>;

const cents = z.int().positive();

export const CheckoutSchema = z.object({
  id: z.string().min(1),
  orderId: z.string().min(1),
  method: CheckoutMethodSchema,
  state: CheckoutStateSchema,
  amountCents: cents,
  currency: z.literal('BRL'),
  description: z.string().nullable(),
  transactionId: z.string().nullable(),
  qrCode: z.string().nullable(),
  qrCodeLocation: z.string().nullable(),
  checkoutUrl: z.string().nullable(),
  payerCpf: z.string().nullable(),
  payerName: z.string().nullable(),
  returnUrl: z.string().nullable(),
  /** Seq of the last stored event; 0 while `Creating`. */
  seq: z.int().nonnegative(),
  createdAt: InstantSchema,
  updatedAt: InstantSchema,
  lastWebhookAt: InstantSchema.nullable(),
  lastCheckedAt: InstantSchema.nullable(),
});
export type Checkout = z.infer<typeof CheckoutSchema>;

/** What the BFF knows before calling the provider; optional fields default to null and currency to BRL. */
export const NewCheckoutSchema = z.object({
  id: z.string().min(1),
  orderId: z.string().min(1),
  method: CheckoutMethodSchema,
  amountCents: cents,
  currency: z.literal('BRL').default('BRL'),
  description: z.string().nullable().default(null),
  payerCpf: z.string().nullable().default(null),
  payerName: z.string().nullable().default(null),
  returnUrl: z.string().nullable().default(null),
  createdAt: InstantSchema,
});
export type NewCheckout = z.input<typeof NewCheckoutSchema>;

/** The provider's answer that turns a reservation into a real checkout. */
export const ActivationSchema = z.object({
  state: CheckoutStateSchema.exclude(['Creating']),
  transactionId: z.string().min(1),
  qrCode: z.string().nullable().default(null),
  qrCodeLocation: z.string().nullable().default(null),
  checkoutUrl: z.string().nullable().default(null),
});
export type Activation = z.input<typeof ActivationSchema>;

export const CheckoutEventSchema = z.object({
  checkoutId: z.string(),
  /** 1, 2, 3… per checkout; doubles as the SSE event id. */
  seq: z.int().positive(),
  state: CheckoutStateSchema,
  source: EventSourceSchema,
  at: InstantSchema,
  data: z.record(z.string(), z.unknown()),
});
export type CheckoutEvent = z.infer<typeof CheckoutEventSchema>;

export const WebhookOutcomeSchema = z.enum(['applied', 'ignored', 'refused', 'invalid']);

export const WebhookLogEntrySchema = z.object({
  id: z.int().positive(),
  receivedAt: InstantSchema,
  transactionId: z.string().nullable(),
  checkoutId: z.string().nullable(),
  state: z.string().nullable(),
  outcome: WebhookOutcomeSchema,
  payload: z.unknown(),
});
export type WebhookLogEntry = z.infer<typeof WebhookLogEntrySchema>;
export const NewWebhookLogEntrySchema = WebhookLogEntrySchema.omit({ id: true });
export type NewWebhookLogEntry = z.input<typeof NewWebhookLogEntrySchema>;

/** An order of the demo shop: the server-side source of the amount, so the browser never sets it. */
export const OrderSchema = z.object({
  orderId: z.string().min(1),
  amountCents: cents,
  description: z.string(),
  items: z.unknown(),
  createdAt: InstantSchema,
});
export type Order = z.infer<typeof OrderSchema>;

export type ReserveResult = { created: true; checkout: Checkout } | { created: false; checkout: Checkout };
export type TransitionResult = { changed: true; checkout: Checkout; event: CheckoutEvent } | { changed: false; checkout: Checkout };

/** Persistence of checkouts, their events, the webhook log and the demo orders. Methods reject on database errors. */
export interface Store {
  /**
   * Atomically returns the order's checkout when one is `Creating`, `Created`, `Registered` or `Completed`, else
   * inserts `draft` as `Creating`. A partial unique index enforces this in the database, so two processes (or two
   * instances on PostgreSQL) can never both get `created: true` for one order.
   */
  reserveCheckout(draft: NewCheckout): Promise<ReserveResult>;
  /** `Creating` → the provider's state and fields, appending event seq 1 (source `create`) in the same transaction. Throws when the checkout is not `Creating`. */
  activateCheckout(id: string, fields: Activation, at: string): Promise<{ checkout: Checkout; event: CheckoutEvent }>;
  /** Deletes a `Creating` reservation after the provider call failed; a checkout in any other state is left alone. */
  discardCheckout(id: string): Promise<void>;
  getCheckout(id: string): Promise<Checkout | undefined>;
  findCheckoutByTransaction(transactionId: string): Promise<Checkout | undefined>;
  /** Every checkout of the order, oldest first. */
  findCheckoutsByOrder(orderId: string): Promise<Checkout[]>;
  /**
   * Compare-and-set: moves to `to` only when the current state is in `from`, appending the next event in the same
   * transaction. Otherwise `changed: false` with the current checkout and no event. Throws when the id is unknown.
   */
  transition(id: string, from: readonly CheckoutState[], to: CheckoutState, source: EventSource, data: Record<string, unknown>, at: string): Promise<TransitionResult>;
  /** Events with seq greater than `afterSeq`, in seq order. */
  eventsAfter(checkoutId: string, afterSeq: number): Promise<CheckoutEvent[]>;
  /** Records that a webhook for the checkout arrived; never moves the date backwards. */
  markWebhookSeen(id: string, at: string): Promise<void>;
  /** Records that the provider was re-read for the checkout; never moves the date backwards. */
  markChecked(id: string, at: string): Promise<void>;
  /** `Created`/`Registered` checkouts whose last webhook (or creation, when none) and last check are older than `before`; never-checked first. */
  listStaleCheckouts(before: string, limit: number): Promise<Checkout[]>;
  logWebhook(entry: NewWebhookLogEntry): Promise<WebhookLogEntry>;
  /** Entries with id greater than `afterId`, oldest first. */
  listWebhookLog(afterId: number, limit: number): Promise<WebhookLogEntry[]>;
  /** Inserts or replaces the order. */
  putOrder(order: Order): Promise<void>;
  getOrder(orderId: string): Promise<Order | undefined>;
  close(): Promise<void>;
}

/**
 * Wakes SSE streams when a checkout has a new event. The seq is a hint: a subscriber reads
 * `store.eventsAfter(lastSentSeq)`, so a repeated, late or zero hint costs one query and loses nothing. Subscribers
 * are called with seq 0 after the PostgreSQL listener reconnects, because notifications sent meanwhile are gone.
 */
export interface StatusHub {
  /** Calls `listener` after an event for the checkout is stored by this instance or, with PostgreSQL, any instance. Returns the unsubscribe function (idempotent). */
  subscribe(checkoutId: string, listener: (seq: number) => void): () => void;
  /** Called by the BFF right after a successful `transition` or `activateCheckout`. */
  publish(checkoutId: string, seq: number): void;
  /** Open subscriptions in total, for leak tests. */
  subscriberCount(): number;
  close(): Promise<void>;
}

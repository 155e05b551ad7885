/**
 * Receiver of the provider's webhooks. The custom header proves the sender and, with a signing key, so does the
 * provider's `X-Webhook-Signature` (constant-time check, 5-minute window, each nonce accepted once across instances,
 * through the store). The payload is only a hint:
 * the transaction is re-read from the provider and only a forward move is applied. Anything already applied,
 * replayed or late still gets a 2xx so the provider stops retrying.
 */
import { z } from 'zod';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { Clock } from '../lib/clock';
import { CLIENT_LEFT_STATUS, ClientLeftError } from '../lib/node-body';
import { secretMatcher } from '../lib/secrets';
import { ProviderError, webhookEvent } from '../provider';
import { SIGNATURE_TOLERANCE_SECONDS, verifyWebhookSignature, WEBHOOK_SIGNATURE_HEADER } from '../provider/webhook-signature';
import type { BackOfficeStore } from '../store/back-office';
import type { CheckoutStore, WebhookNonceStore } from '../store/checkout-store';
import { WEBHOOK_ERRORS, type WebhookErrorCode } from '../../core/contract';
import { envelopeOf, errorBody } from '../http/error-envelope';
import { parseJsonText } from '../http/json-body';
import { annotateRequest } from '../lib/request-scope';
import { NO_METRICS, type Metrics, type WebhookOutcome } from '../metrics/metrics';
import { ApiError, invalidJson } from '../payments/errors';
import type { CheckoutService, WebhookTarget } from '../payments/service';

/** What became of one authenticated webhook, for an observer such as a log (the demo's sandbox panel keeps one). */
export interface WebhookReceipt {
  receivedAt: string;
  transactionId: string | null;
  checkoutId: string | null;
  state: string | null;
  /**
   * `applied`: the re-read moved the checkout; `adopted`: a transaction of ours that no checkout held is now stored;
   * `ignored`: nothing to move; `invalid`: not a webhook event.
   */
  outcome: 'applied' | 'adopted' | 'ignored' | 'invalid';
  payload: unknown;
}

/** The checkouts, the nonces of signed webhooks, and the log of each checkout's webhooks (of the back office's part). */
export type WebhookReceiverStore = CheckoutStore & WebhookNonceStore & Pick<BackOfficeStore, 'recordWebhook'>;

export interface WebhookRoutesOptions {
  service: CheckoutService;
  store: WebhookReceiverStore;
  clock: Clock;
  webhook: WebhookTarget;
  /** The provider portal's signing key (`WEBHOOK_SIGNING_KEY`): when set, every webhook must be signed with it. */
  signingKey?: string | undefined;
  /** Told of every authenticated webhook after its outcome is stored and published; never delays the answer. */
  onWebhook?: ((receipt: WebhookReceipt) => void | Promise<void>) | undefined;
  logger: Pick<Console, 'error'>;
  /** Told of each webhook's outcome (`pixcheckout_provider_webhooks_total`). */
  metrics?: Metrics;
}

/**
 * What a provider transaction id can be: 1 to 128 characters, none of them a control character. The provider's are far
 * shorter (the emulator's are 24 hex digits); a webhook naming anything else can never be confirmed, so it is refused
 * with a 400, which the provider does not retry, rather than answered 503 after a re-read that cannot succeed
 * (docs/spec-gaps.md, "The BFF: signed webhooks").
 */
const TRANSACTION_ID = /^[^\p{Cc}\p{Cs}]{1,128}$/u;

/**
 * What the BFF reads of a webhook: what makes it an event (the transaction's id and a state the contract names; the
 * state goes to the log). The payload is a hint, the re-read from the provider decides, so the event's other fields
 * are not checked (nor copied: the payload goes to the log as it came): a provider that formats an amount or a date differently one day still gets its payments heard of
 * at once, rather than refused with a 4xx it never retries (docs/spec-gaps.md, "The BFF: signed webhooks").
 */
const webhookHint = z.object({ id: webhookEvent.shape.id, transactionState: webhookEvent.shape.transactionState });

const SIGNATURE_REFUSALS = {
  missing: ['webhook_signature_missing', `The ${WEBHOOK_SIGNATURE_HEADER} header is missing.`],
  malformed: ['webhook_signature_invalid', `The ${WEBHOOK_SIGNATURE_HEADER} header is malformed.`],
  mismatch: ['webhook_signature_invalid', 'The webhook signature does not match.'],
  expired: ['webhook_signature_expired', 'The webhook signature is more than 5 minutes away from our clock.'],
  replayed: ['webhook_replayed', 'This signed webhook was received already.'],
} as const;

/** What the receiver needs of a webhook request, whichever server carries it (Hono's context, or Node's own request). */
export interface WebhookCall {
  header(name: string): string | undefined;
  /** The whole body as text; rejects with an `ApiError` (a 408 or a 413) when the body reader refuses it. */
  text(): Promise<string>;
}

/** The answer to one webhook: a status and its JSON body (`Done` with the outcome, or the error envelope). */
export interface WebhookAnswer {
  status: ContentfulStatusCode;
  body: object;
}

/**
 * The receiver itself, apart from any server: `webhookRoutes` (./routes/webhooks.ts) mounts it in Hono, and
 * `nodeWebhookRoute` (server/node/webhook-route.ts) answers the plain case straight from Node's request, before the app. Both send its answer as
 * it is. A refusal of the body reader or of the JSON rules is answered in the envelope; anything else is thrown.
 */
export function webhookReceiver(options: WebhookRoutesOptions) {
  const { service, store, clock, webhook, signingKey, onWebhook, logger, metrics = NO_METRICS } = options;
  const receivedAt = () => clock.now().toISOString();
  const fromProvider = secretMatcher(webhook.secret);
  /**
   * After the answer (setImmediate: SQLite writes synchronously, so even an unawaited write would hold it up): the
   * webhook is kept for the back office's view of its checkout, and the observer is told. A failure of either loses
   * a log line, nothing else.
   */
  const tell = (receipt: WebhookReceipt) =>
    setImmediate(() => {
      const { checkoutId, transactionId, state, outcome, receivedAt: at } = receipt;
      if (checkoutId && transactionId && outcome !== 'invalid') {
        store
          .recordWebhook({ checkoutId, transactionId, state, outcome, receivedAt: at })
          .catch((error: unknown) => logger.error('webhook record:', error));
      }
      if (!onWebhook) return;
      Promise.resolve()
        .then(() => onWebhook(receipt))
        .catch((error: unknown) => logger.error('webhook observer:', error));
    });
  const done = (outcome: string): WebhookAnswer => ({ status: 200, body: { statusCode: 'Done' as const, data: { outcome } } });
  /** A refusal for the provider, with its status from the contract (a 5xx makes the provider retry the delivery). */
  const refusal = (name: string, code: WebhookErrorCode, message: string): WebhookAnswer => ({
    status: WEBHOOK_ERRORS[code],
    body: errorBody(name, code, message),
  });
  const refused = (error: ApiError): WebhookAnswer => ({
    status: error.status,
    body: envelopeOf(error),
  });
  const UNCONFIRMED = 'Could not confirm the transaction with the provider.';

  /** With a signing key: the signature over the body as received, then its nonce claimed once for all instances. */
  async function signed(call: WebhookCall, text: string, then: () => Promise<WebhookAnswer>): Promise<WebhookAnswer> {
    if (!signingKey) return then();
    const now = clock.now();
    const refuse = (reason: keyof typeof SIGNATURE_REFUSALS) => {
      const [code, message] = SIGNATURE_REFUSALS[reason];
      logger.error(`webhook refused: ${code}`);
      return refusal('AuthenticationError', code, message);
    };
    const check = verifyWebhookSignature({
      key: signingKey,
      header: call.header(WEBHOOK_SIGNATURE_HEADER),
      body: text,
      nowSeconds: now.getTime() / 1000,
    });
    if (!check.ok) return refuse(check.reason);
    // A nonce accepted within the window stays remembered for two windows: by then its TS is refused anyway.
    const forgetBefore = new Date(now.getTime() - 2 * SIGNATURE_TOLERANCE_SECONDS * 1000).toISOString();
    if (!(await store.claimWebhookNonce(check.nonce, now.toISOString(), forgetBefore))) return refuse('replayed');
    const answer = await then();
    // Not handled (the provider could not be re-read): the provider's retry of this very delivery must get through.
    if (answer.status >= 500)
      await store.releaseWebhookNonce(check.nonce).catch((error: unknown) => logger.error('webhook nonce release:', error));
    return answer;
  }

  async function handle(payload: unknown): Promise<WebhookAnswer> {
    const parsed = webhookHint.safeParse(payload);
    if (!parsed.success || !TRANSACTION_ID.test(parsed.data.id)) {
      tell({ receivedAt: receivedAt(), transactionId: null, checkoutId: null, state: null, outcome: 'invalid', payload });
      return refusal('ApiError', 'invalid_webhook', 'The webhook payload does not match the expected event.');
    }
    const event = parsed.data;
    const entry = { receivedAt: receivedAt(), transactionId: event.id, state: event.transactionState, payload };
    const checkout = await store.findCheckoutByTransaction(event.id);
    // The request's log lines carry the payment's ids (server/lib/request-scope.ts).
    annotateRequest({ transactionId: event.id, checkoutId: checkout?.id, orderId: checkout?.orderId });
    if (!checkout) {
      // One of our cash-outs or refunds: re-read and recorded (its events written); a failed re-read is retried.
      const cashOut = await service.cashOutWebhook(event.id).then(
        (found) => (found ? 'applied' : 'none'),
        () => 'unconfirmed',
      );
      if (cashOut === 'unconfirmed') return refusal('ApiError', 'provider_unavailable', UNCONFIRMED);
      if (cashOut === 'applied') {
        tell({ ...entry, checkoutId: null, outcome: 'applied' });
        return done('applied');
      }
      // No checkout holds it. When the provider says it is ours (a create whose answer was lost, or came late),
      // it is adopted, so its payment is never ignored; a transaction the provider does not know is nothing.
      let unconfirmed = false;
      const adopted = await service.adopt(event.id, 'webhook').catch((error: unknown) => {
        if (!(error instanceof ProviderError && error.status === 404)) unconfirmed = true;
        return undefined;
      });
      if (unconfirmed) return refusal('ApiError', 'provider_unavailable', UNCONFIRMED);
      const outcome = adopted ? 'adopted' : 'ignored';
      if (adopted) annotateRequest({ checkoutId: adopted.id, orderId: adopted.orderId });
      tell({ ...entry, checkoutId: adopted?.id ?? null, outcome });
      return done(outcome);
    }
    // A failed re-read answers 503: the provider retries, and the reconciler catches it meanwhile. The webhook is
    // marked seen by the transition's own write when the checkout moves (bookkeeping for the reconciler, never a
    // write of its own before the streams get the change), and on its own otherwise.
    const result = await service.refresh(checkout, 'webhook', { webhookAt: entry.receivedAt }).catch(() => undefined);
    if (!result) {
      await store.markWebhookSeen(checkout.id, entry.receivedAt).catch((error: unknown) => logger.error('webhook seen:', error));
      return refusal('ApiError', 'provider_unavailable', UNCONFIRMED);
    }
    const outcome = result.changed ? 'applied' : 'ignored';
    tell({ ...entry, checkoutId: checkout.id, outcome });
    return done(outcome);
  }

  async function answer(call: WebhookCall): Promise<WebhookAnswer> {
    // Checked before the body is read, so an unauthenticated sender can't make us parse anything.
    if (!fromProvider(call.header(webhook.headerName))) {
      return refusal('AuthenticationError', 'webhook_unauthorized', 'Missing or wrong webhook header.');
    }
    let text: string;
    try {
      text = await call.text();
    } catch (error) {
      // A sender that left mid-body reads no answer: only the request log's line, 499, tells of it.
      if (error instanceof ClientLeftError) return { status: CLIENT_LEFT_STATUS as ContentfulStatusCode, body: {} };
      // A deadline or size refusal of the body reader keeps its own status.
      return refused(error instanceof ApiError ? error : invalidJson('The request body could not be read.'));
    }
    return signed(call, text, () => {
      let payload: unknown;
      try {
        // The contract names no content type for webhooks; the secret header has proven the sender already.
        payload = parseJsonText(text);
      } catch (error) {
        if (error instanceof ApiError) return Promise.resolve(refused(error));
        throw error;
      }
      return handle(payload);
    });
  }

  return async function receive(call: WebhookCall): Promise<WebhookAnswer> {
    const answered = await answer(call);
    metrics.providerWebhook(webhookOutcome(answered));
    return answered;
  };
}

/** A refusal (any 4xx or 5xx: the provider retries a 5xx), else whether the webhook moved something. */
function webhookOutcome({ status, body }: WebhookAnswer): WebhookOutcome {
  if (status >= 400) return 'refused';
  const outcome = (body as { data?: { outcome?: string } }).data?.outcome;
  return outcome === 'applied' || outcome === 'adopted' ? 'applied' : 'ignored';
}

export type WebhookReceive = ReturnType<typeof webhookReceiver>;

/** `webhook tx_1 Completed: applied to co_1`, the request log's line for every authenticated webhook once it is handled. */
export function webhookLine(receipt: WebhookReceipt): string {
  const target = receipt.checkoutId ? ` to ${receipt.checkoutId}` : '';
  return `webhook ${receipt.transactionId ?? '-'} ${receipt.state ?? '-'}: ${receipt.outcome}${target}`;
}

/** The fields of the webhook's line (its payload never: it may hold the payer's CPF). */
export const webhookFields = ({ transactionId, checkoutId, state, outcome }: WebhookReceipt) => ({
  transactionId: transactionId ?? undefined,
  checkoutId: checkoutId ?? undefined,
  state,
  outcome,
});

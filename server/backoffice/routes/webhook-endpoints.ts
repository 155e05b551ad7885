/**
 * The merchant's webhook endpoints, `/webhook-endpoints`: add one (its secret is answered once, never again), list
 * them (a masked hint of each secret only), disable and enable, delete, rotate its secret, and send it a test event.
 * The environment's endpoint (MERCHANT_WEBHOOK_URL, id `env`) is listed and can be tested, but is changed in the
 * environment only. The delivery worker (server/merchant-webhooks/delivery.ts) sends each enabled endpoint the events of its type
 * filter; it hears of a change made here at once (`refresh`), other instances within seconds.
 *
 * Rotation: `POST /:id/rotate` makes a new secret the endpoint's; the previous one keeps signing beside it (each
 * delivery carries both signatures) for 24 hours, or until `POST /:id/rotate/finish`, whichever comes first. A second
 * rotation meanwhile drops the oldest secret.
 *
 * An endpoint's URL must be https to a public address (server/merchant-webhooks/endpoint-address.ts; on the emulator, the
 * loopback address too), checked when it is added and again at every connection; a test event answers a status or
 * one of a few words (server/merchant-webhooks/send.ts), never what the socket said. A viewer sees each endpoint's scheme and
 * host only (`https://hooks.example.com/…`): a receiver's path often holds a token of its own.
 *
 * Every change and every test is recorded in the audit trail (`webhook_endpoint.add`, `.disable`, `.enable`, `.delete`,
 * `.rotate`, `.rotate_finish`, `.test`), with the endpoint's id (and, added, its host); never a secret.
 */
import { randomBytes } from 'node:crypto';
import { Hono, type Context } from 'hono';
import { z } from 'zod';
import type { Clock } from '../../lib/clock';
import type { WebhookEndpoint } from '../../merchant-webhooks/delivery';
import { endpointUrlAllowed, type EndpointAddressPolicy } from '../../merchant-webhooks/endpoint-address';
import { sendEvent, testEvent } from '../../merchant-webhooks/send';
import { webhookTransport } from '../../merchant-webhooks/webhook-post';
import { WEBHOOK_SECRET_FORMAT } from '../../merchant-webhooks/signing';
import { openSigningSecrets, sealEndpointSecret } from '../../merchant-webhooks/endpoint-secrets';
import type { Sealer } from '../../lib/sealer';
import { signingHints, type EndpointStore, type StoredWebhookEndpoint } from '../../store/endpoints';
import {
  MERCHANT_EVENT_TYPES,
  type WebhookEndpointInput,
  type WebhookEndpointView,
  type WebhookEndpointWithSecret,
  type WebhookTestResult,
} from '../../../core/backoffice';
import {
  webhookEndpointFromEnvironment,
  webhookEndpointNotFound,
  webhookEndpointsLimit,
  webhookEndpointUrlNotAllowed,
} from '../../payments/errors';
import { parseJson } from '../../http/json-body';
import { actorOf, hasRole, type BackOfficeEnv, type AuditRecord } from '../actor';
import { taking } from '../wire-check';

/**
 * What the back office needs of the delivery worker: its environment's endpoints, where a stored one may point, and
 * a wake-up after a change.
 */
export interface WebhookWiring {
  environment: readonly WebhookEndpoint[];
  addresses: EndpointAddressPolicy;
  refresh(): void;
}

export interface WebhookEndpointOptions {
  store: EndpointStore;
  clock: Clock;
  webhooks: WebhookWiring;
  /** Seals the secrets the store keeps, opens them to sign a test event. */
  sealer: Sealer;
}

/** The most endpoints a merchant keeps: each one is a queue the worker serves. */
export const MAX_ENDPOINTS = 20;
/** How long a rotated-out secret keeps signing, unless the rotation is finished before. */
export const ROTATION_MS = 24 * 3_600_000;
/** A test event gets its answer within this, or is told it timed out. */
const TEST_TIMEOUT_MS = 5_000;
const STORED_ID = /^we_[A-Za-z0-9_-]{1,64}$/;

const isHttpUrl = (value: string) => {
  if (!URL.canParse(value)) return false;
  const url = new URL(value);
  return (url.protocol === 'http:' || url.protocol === 'https:') && !url.username && !url.password;
};
const secret = z.string().max(200).regex(WEBHOOK_SECRET_FORMAT, 'A whsec_ secret: whsec_ and at least 24 bytes in base64');
const endpointBody = taking<WebhookEndpointInput>()(
  z.object({
    url: z.string().trim().max(2048).refine(isHttpUrl, 'An http or https address, without user or password'),
    /** The event types it wants; none or empty: every type. */
    types: z
      .array(z.enum(MERCHANT_EVENT_TYPES))
      .max(50)
      .transform((types) => [...new Set(types)])
      .optional(),
    secret: secret.optional(),
  }),
);
const rotateBody = z.object({ secret: secret.optional() });

const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;
/** A secret as the list shows it: its last four characters. */
const hint = (lastFour: string) => `whsec_…${lastFour.slice(-4)}`;

/** The scheme and host of an endpoint's URL, what a viewer sees of it: `https://hooks.example.com/…`. */
export const hostOnly = (url: string) => {
  const { protocol, host } = new URL(url);
  return `${protocol}//${host}/…`;
};

/** An endpoint as the back office shows it: never a secret. */
export function storedEndpointView(endpoint: StoredWebhookEndpoint, now: Date): WebhookEndpointView {
  const hints = signingHints(endpoint, now);
  return {
    id: endpoint.id,
    url: endpoint.url,
    types: endpoint.types,
    source: 'store',
    enabled: !endpoint.disabled,
    disabled: endpoint.disabled,
    secretHints: hints.map(hint),
    rotatingUntil: hints.length > 1 ? endpoint.previousUntil : null,
    createdAt: endpoint.createdAt,
  };
}

const environmentView = (endpoint: WebhookEndpoint): WebhookEndpointView => ({
  id: endpoint.id,
  url: endpoint.url,
  types: [...(endpoint.types ?? [])],
  source: 'environment',
  enabled: true,
  disabled: null,
  secretHints: endpoint.secrets.map(hint),
  rotatingUntil: null,
  createdAt: null,
});

/** The stored endpoint of `id`, or a 404 (the environment's is refused: it is not changed here). */
export async function storedEndpoint(
  store: Pick<EndpointStore, 'getWebhookEndpoint'>,
  webhooks: WebhookWiring,
  id: string,
): Promise<StoredWebhookEndpoint> {
  if (webhooks.environment.some((endpoint) => endpoint.id === id)) throw webhookEndpointFromEnvironment();
  const endpoint = STORED_ID.test(id) ? await store.getWebhookEndpoint(id) : undefined;
  if (!endpoint) throw webhookEndpointNotFound();
  return endpoint;
}

export function webhookEndpointRoutes({ store, clock, webhooks, sealer }: WebhookEndpointOptions) {
  // The test events' own connections: a stored endpoint's checked as the worker's are.
  const transport = webhookTransport(webhooks.addresses);
  const changed = <T>(result: T) => {
    webhooks.refresh();
    return result;
  };
  /** The stored endpoint after `change`, as shown; a 404 when it went meanwhile. */
  const shown = async (change: Promise<StoredWebhookEndpoint | undefined>) => {
    const endpoint = await change;
    if (!endpoint) throw webhookEndpointNotFound();
    return changed(storedEndpointView(endpoint, clock.now()));
  };

  /** Records a change of endpoint `id` made by the request's actor. */
  const audit = (c: Context<BackOfficeEnv>, action: string, id: string, details?: AuditRecord['details']) =>
    c.get('audit')({ action: `webhook_endpoint.${action}`, target: id, outcome: 'ok', ...(details ? { details } : {}) });

  return new Hono<BackOfficeEnv>()
    .post('/webhook-endpoints', async (c) => {
      const body = await parseJson(c, endpointBody);
      if (!(await endpointUrlAllowed(body.url, webhooks.addresses))) throw webhookEndpointUrlNotAllowed();
      if ((await store.listWebhookEndpoints()).length >= MAX_ENDPOINTS) throw webhookEndpointsLimit(MAX_ENDPOINTS);
      const given = body.secret ?? newSecret();
      const id = `we_${randomBytes(12).toString('base64url')}`;
      const { secret: sealed, hint: secretHint } = sealEndpointSecret(sealer, id, given);
      const endpoint = await store.addWebhookEndpoint({
        ...{ id, url: body.url, types: body.types ?? [], secret: sealed, secretHint },
        createdAt: clock.now().toISOString(),
      });
      // Its host only: every role reads the audit trail.
      await audit(c, 'add', endpoint.id, { url: hostOnly(endpoint.url), types: endpoint.types });
      // The secret is answered this once: the list shows a hint of it only.
      return c.json(changed({ ...storedEndpointView(endpoint, clock.now()), secret: given } satisfies WebhookEndpointWithSecret), 201);
    })
    .get('/webhook-endpoints', async (c) => {
      const now = clock.now();
      const stored = (await store.listWebhookEndpoints()).map((endpoint) => storedEndpointView(endpoint, now));
      const items = [...webhooks.environment.map(environmentView), ...stored];
      if (hasRole(actorOf(c).role, 'operator')) return c.json({ items } satisfies { items: WebhookEndpointView[] });
      return c.json({ items: items.map((item) => ({ ...item, url: hostOnly(item.url) })) } satisfies { items: WebhookEndpointView[] });
    })
    .post('/webhook-endpoints/:id/disable', async (c) => {
      const { id } = await storedEndpoint(store, webhooks, c.req.param('id'));
      const view = await shown(store.disableWebhookEndpoint(id, { reason: 'owner', since: clock.now().toISOString() }));
      await audit(c, 'disable', id);
      return c.json(view);
    })
    .post('/webhook-endpoints/:id/enable', async (c) => {
      const { id } = await storedEndpoint(store, webhooks, c.req.param('id'));
      const view = await shown(store.enableWebhookEndpoint(id));
      await audit(c, 'enable', id);
      return c.json(view);
    })
    .delete('/webhook-endpoints/:id', async (c) => {
      const { id } = await storedEndpoint(store, webhooks, c.req.param('id'));
      if (!(await store.deleteWebhookEndpoint(id))) throw webhookEndpointNotFound();
      await audit(c, 'delete', id);
      return c.json(changed({ id, deleted: true }));
    })
    .post('/webhook-endpoints/:id/rotate', async (c) => {
      const { id } = await storedEndpoint(store, webhooks, c.req.param('id'));
      // The body is optional: none (or `{}`) makes a new secret.
      const hasBody = Boolean(c.req.header('content-type')) || Number(c.req.header('content-length') ?? 0) > 0;
      const body = hasBody ? await parseJson(c, rotateBody) : {};
      const fresh = body.secret ?? newSecret();
      const until = new Date(clock.now().getTime() + ROTATION_MS).toISOString();
      const sealed = sealEndpointSecret(sealer, id, fresh);
      const view = await shown(store.rotateWebhookEndpointSecret(id, sealed.secret, sealed.hint, until));
      await audit(c, 'rotate', id, { previousUntil: until });
      return c.json({ ...view, secret: fresh } satisfies WebhookEndpointWithSecret);
    })
    .post('/webhook-endpoints/:id/rotate/finish', async (c) => {
      const { id } = await storedEndpoint(store, webhooks, c.req.param('id'));
      const view = await shown(store.finishWebhookEndpointRotation(id));
      await audit(c, 'rotate_finish', id);
      return c.json(view);
    })
    .post('/webhook-endpoints/:id/test', async (c) => {
      // Any endpoint, the environment's and a disabled one too: a test tells whether it is ready.
      const id = c.req.param('id');
      const fromEnvironment = webhooks.environment.find((endpoint) => endpoint.id === id);
      const endpoint = fromEnvironment ?? (await storedEndpoint(store, webhooks, id));
      const secrets = fromEnvironment
        ? fromEnvironment.secrets
        : openSigningSecrets(sealer, endpoint as StoredWebhookEndpoint, clock.now());
      const event = testEvent(id, clock);
      const target = { id, url: endpoint.url, secrets, checked: !fromEnvironment };
      const { attempt } = await sendEvent(transport, target, event, clock, TEST_TIMEOUT_MS);
      await audit(c, 'test', id, { delivered: attempt.error === null, status: attempt.status });
      return c.json({ eventId: event.id, delivered: attempt.error === null, ...attempt } satisfies WebhookTestResult);
    });
}

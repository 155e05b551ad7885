/**
 * The merchant's webhook endpoints kept in the store (server/store/endpoints.ts) and the log of their deliveries, on
 * SQLite and (with TEST_DATABASE_URL) PostgreSQL alike: an endpoint's events from its creation on, only the types of
 * its filter, none while it is disabled; a rotation's previous secret and its end; the automatic disable after five
 * days of failures; each event's delivery state and attempts, and a redelivery with the same event.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSealer, newSecretsKey, parseSecretsKey } from '../../../server/lib/sealer';
import { openPostgresStore } from '../../../server/store/postgres';
import { openSqliteStore } from '../../../server/store/sqlite';
import type { Store } from '../../../server/store/types';
import { createTestDatabase, TEST_DATABASE_URL, type TestDatabase } from './pg-test-database';
import { at, draftFor } from './store-contract';

const dir = mkdtempSync(join(tmpdir(), 'endpoints-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
let pg: TestDatabase | undefined;
afterAll(async () => pg?.drop());

const backends: [string, () => Promise<Store>][] = [
  ['SQLite', async () => openSqliteStore({ file: join(dir, `store-${++files}.sqlite`) })],
  ...(TEST_DATABASE_URL
    ? ([
        [
          'PostgreSQL',
          async () => {
            pg ??= await createTestDatabase(TEST_DATABASE_URL!);
            const store = await openPostgresStore({ connectionString: pg.url });
            await pg.query('DELETE FROM webhook_endpoints');
            return store;
          },
        ],
      ] as [string, () => Promise<Store>][])
    : []),
];

const DAY = 24 * 60;
const sealer = createSealer(parseSecretsKey(newSecretsKey()));
/** The store keeps secrets sealed only (made once each: a sealing is random). */
const sealedSecrets = [0, 1, 2, 3].map((n) => sealer.seal(`whsec_${Buffer.alloc(32, n).toString('base64')}`, 'we_test'));
const secret = (n: number) => sealedSecrets[n]!;
let ids = 0;
/** Ids in the order they are made (lists of deliveries are by endpoint id). */
const newId = () => `we_test${String(++ids).padStart(4, '0')}${Math.random().toString(36).slice(2, 8)}`;

describe.each(backends)('webhook endpoints in the store (%s)', (_name, open) => {
  let store: Store;
  beforeEach(async () => {
    store = await open();
  });
  afterEach(async () => {
    await store.close();
  });

  const add = (overrides: { types?: string[]; createdAt?: string } = {}) =>
    store.addWebhookEndpoint({
      id: newId(),
      url: 'https://shop.example/hooks',
      types: [],
      secret: secret(1),
      secretHint: 'AQE=',
      createdAt: at(0),
      ...overrides,
    });

  /** A checkout of a new order, paid (`checkout.completed`) or failed (`checkout.failed`). */
  async function checkoutEvent(outcome: 'Completed' | 'Error', when = at(2)) {
    const { checkout } = await store.reserveCheckout(draftFor(`E-${Math.random().toString(36).slice(2)}`));
    await store.activateCheckout(checkout.id, { state: 'Registered', transactionId: `tx-${checkout.id}` }, at(1));
    await store.apply(checkout.id, { type: 'provider', state: outcome, paidAt: when }, 'webhook', {}, when, { details: { paidAt: when } });
    return checkout.id;
  }
  const queuedTypes = async (endpointId: string, types: string[] = []) => {
    await store.queueEndpointDeliveries(endpointId, types, at(3), 100);
    const taken = await store.claimDeliveries({ [endpointId]: 100 }, at(3), `taker-${Math.random()}`, at(4));
    return taken.map((delivery) => delivery.event.type);
  };

  it('keeps an endpoint with its url, types, secret and creation time, lists them oldest first, and deletes one', async () => {
    const first = await add({ types: ['checkout.completed'] });
    const second = await add({ createdAt: at(1) });
    expect(first).toEqual({
      id: first.id,
      url: 'https://shop.example/hooks',
      types: ['checkout.completed'],
      secret: secret(1),
      secretHint: 'AQE=',
      previousSecret: null,
      previousSecretHint: null,
      previousUntil: null,
      disabled: null,
      failingSince: null,
      createdAt: at(0),
    });
    expect((await store.listWebhookEndpoints()).map((e) => e.id)).toEqual([first.id, second.id]);
    expect(await store.getWebhookEndpoint(second.id)).toEqual(second);
    expect(await store.deleteWebhookEndpoint(first.id)).toBe(true);
    expect(await store.deleteWebhookEndpoint(first.id)).toBe(false);
    expect(await store.getWebhookEndpoint(first.id)).toBeUndefined();
    expect((await store.listWebhookEndpoints()).map((e) => e.id)).toEqual([second.id]);
  });

  it('queues for an endpoint the events written once it exists, only the types of its filter', async () => {
    await checkoutEvent('Completed');
    const all = await add();
    const failures = await add({ types: ['checkout.failed'] });
    await checkoutEvent('Completed');
    await checkoutEvent('Error');
    expect(await queuedTypes(all.id)).toEqual(['checkout.completed', 'checkout.failed']);
    expect(await queuedTypes(failures.id, failures.types)).toEqual(['checkout.failed']);
    // The filtered-out event is passed over for good, not left for later.
    expect(await queuedTypes(failures.id, failures.types)).toEqual([]);
    expect(await queuedTypes(failures.id)).toEqual([]);
  });

  it('queues nothing for the events written while an endpoint is disabled, and its new ones once enabled', async () => {
    const endpoint = await add();
    const disabled = await store.disableWebhookEndpoint(endpoint.id, { reason: 'owner', since: at(5) });
    expect(disabled).toMatchObject({ disabled: { reason: 'owner', since: at(5) } });
    // A second disable keeps the first reason and time.
    expect(await store.disableWebhookEndpoint(endpoint.id, { reason: 'failing', since: at(6) })).toEqual(disabled);
    await checkoutEvent('Completed');
    expect(await store.enableWebhookEndpoint(endpoint.id)).toMatchObject({ disabled: null, failingSince: null });
    expect(await queuedTypes(endpoint.id)).toEqual([]);
    await checkoutEvent('Error');
    expect(await queuedTypes(endpoint.id)).toEqual(['checkout.failed']);
    expect(await store.disableWebhookEndpoint('we_unknown', { reason: 'owner', since: at(5) })).toBeUndefined();
    expect(await store.enableWebhookEndpoint('we_unknown')).toBeUndefined();
  });

  it('keeps the previous secret of a rotation until its time, drops it when the rotation is finished', async () => {
    const endpoint = await add();
    const rotated = await store.rotateWebhookEndpointSecret(endpoint.id, secret(2), 'hint', at(DAY));
    expect(rotated).toMatchObject({ secret: secret(2), previousSecret: secret(1), previousUntil: at(DAY) });
    // A second rotation drops the oldest: two secrets at most.
    expect(await store.rotateWebhookEndpointSecret(endpoint.id, secret(3), 'hint', at(DAY + 5))).toMatchObject({
      secret: secret(3),
      previousSecret: secret(2),
      previousUntil: at(DAY + 5),
    });
    expect(await store.finishWebhookEndpointRotation(endpoint.id)).toMatchObject({
      secret: secret(3),
      previousSecret: null,
      previousUntil: null,
    });
    expect(await store.rotateWebhookEndpointSecret('we_unknown', secret(2), 'hint', at(DAY))).toBeUndefined();
  });

  it('disables an endpoint whose every attempt failed for the whole period, and a 2xx starts it over', async () => {
    const endpoint = await add();
    const cutoff = (minutes: number) => at(minutes - 5 * DAY);
    expect(await store.noteEndpointAttempt(endpoint.id, at(10), false, cutoff(10))).toBe(false);
    expect(await store.getWebhookEndpoint(endpoint.id)).toMatchObject({ failingSince: at(10), disabled: null });
    expect(await store.noteEndpointAttempt(endpoint.id, at(4 * DAY), false, cutoff(4 * DAY))).toBe(false);
    expect(await store.noteEndpointAttempt(endpoint.id, at(4 * DAY + 1), true, cutoff(4 * DAY + 1))).toBe(false);
    expect(await store.getWebhookEndpoint(endpoint.id)).toMatchObject({ failingSince: null });
    expect(await store.noteEndpointAttempt(endpoint.id, at(5 * DAY + 2), false, cutoff(5 * DAY + 2))).toBe(false);
    expect(await store.noteEndpointAttempt(endpoint.id, at(10 * DAY + 1), false, cutoff(10 * DAY + 1))).toBe(false);
    expect(await store.noteEndpointAttempt(endpoint.id, at(10 * DAY + 2), false, cutoff(10 * DAY + 2))).toBe(true);
    expect(await store.getWebhookEndpoint(endpoint.id)).toMatchObject({ disabled: { reason: 'failing', since: at(10 * DAY + 2) } });
    expect(await store.noteEndpointAttempt(endpoint.id, at(10 * DAY + 3), false, cutoff(10 * DAY + 3))).toBe(false);
    expect(await store.enableWebhookEndpoint(endpoint.id)).toMatchObject({ disabled: null, failingSince: null });
    expect(await store.noteEndpointAttempt('we_unknown', at(10), false, at(10))).toBe(false);
  });

  it("tells each event's deliveries and attempts, and redelivers it with the same event", async () => {
    const endpoint = await add();
    const other = await add();
    await checkoutEvent('Completed');
    await store.queueEndpointDeliveries(endpoint.id, [], at(3), 100);
    const [delivery] = await store.claimDeliveries({ [endpoint.id]: 10 }, at(3), 'a', at(4));
    const event = delivery!.event;
    expect(await store.getMerchantEvent(event.id)).toEqual(event);
    expect(await store.getMerchantEvent('evt_unknown')).toBeUndefined();
    expect(await store.deliveriesOfEvents([event.seq])).toEqual([
      { eventSeq: event.seq, endpointId: endpoint.id, state: 'pending', attempts: 0, lastStatus: null, nextAt: at(3), deliveredAt: null },
    ]);
    await store.recordAttempt(event.id, endpoint.id, 'a', { at: at(3), status: 500, durationMs: 7, error: 'HTTP 500' }, { retryAt: at(8) });
    await store.claimDeliveries({ [endpoint.id]: 10 }, at(8), 'b', at(9));
    await store.recordAttempt(event.id, endpoint.id, 'b', { at: at(8), status: 204, durationMs: 3, error: null }, { delivered: true });
    expect(await store.deliveriesOfEvents([event.seq])).toEqual([
      { eventSeq: event.seq, endpointId: endpoint.id, state: 'delivered', attempts: 2, lastStatus: 204, nextAt: null, deliveredAt: at(8) },
    ]);
    expect(await store.attemptsOfEvent(event.id)).toEqual([
      { endpointId: endpoint.id, at: at(3), status: 500, durationMs: 7, error: 'HTTP 500' },
      { endpointId: endpoint.id, at: at(8), status: 204, durationMs: 3, error: null },
    ]);
    expect(await store.attemptsOfEvent('evt_unknown')).toBeUndefined();

    // Again to the endpoint that had it, and to one that never had it: each a new pending delivery, due now.
    const again = await store.redeliverMerchantEvent(event.id, [endpoint.id, other.id], at(20));
    expect(again).toEqual([
      { eventSeq: event.seq, endpointId: endpoint.id, state: 'pending', attempts: 0, lastStatus: 204, nextAt: at(20), deliveredAt: at(8) },
      { eventSeq: event.seq, endpointId: other.id, state: 'pending', attempts: 0, lastStatus: null, nextAt: at(20), deliveredAt: null },
    ]);
    expect(await store.claimDeliveries({ [endpoint.id]: 10 }, at(19), 'c', at(21))).toEqual([]);
    const taken = await store.claimDeliveries({ [endpoint.id]: 10, [other.id]: 10 }, at(20), 'c', at(21));
    expect(taken.map((d) => [d.endpointId, d.event.id]).sort()).toEqual([
      [endpoint.id, event.id],
      [other.id, event.id],
    ]);
    expect(await store.redeliverMerchantEvent('evt_unknown', [endpoint.id], at(20))).toBeUndefined();

    // A deleted endpoint leaves no delivery behind (its attempts stay in the log).
    await store.deleteWebhookEndpoint(other.id);
    expect((await store.deliveriesOfEvents([event.seq])).map((d) => d.endpointId)).toEqual([endpoint.id]);
    expect(await store.attemptsOfEvent(event.id)).toHaveLength(2);
  });
});

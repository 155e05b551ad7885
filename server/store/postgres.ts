/**
 * The shared store for several BFF instances: PostgreSQL through a `pg` Pool. Same migrations and behaviour as the
 * SQLite store. Reservations rely on INSERT … ON CONFLICT DO NOTHING against the partial unique index; transitions
 * are a conditional UPDATE … RETURNING plus the event insert in one transaction, so under READ COMMITTED a second
 * concurrent transition waits for the row lock, re-checks `state`, and changes nothing.
 */
import pg from 'pg';
import { LIVE_STATES, RESERVING_STATES, type StoredState } from '../../core/states';
import { accountsPart } from './accounts-part';
import { backOfficePart } from './back-office-part';
import { companyPaymentsPart } from './company-payments-part';
import { deliveriesPart } from './deliveries';
import { deliveryLogPart } from './delivery-log';
import { endpointsPart } from './endpoints';
import { migratePostgres } from './migrate';
import { buildOnlinePostgres } from './migrate-online';
import { sqlList } from './migrations';
import { inTransaction, insertMerchantEvent } from './pg-transaction';
import { storeTypes, UTC_SESSION } from './pg-types';
import { reconcilePart } from './reconcile';
import { postgresDb } from './sql/postgres-executor';
import { driveAsync } from './sql/work';
import { activationSteps, insertSteps, supersedingInsertSteps, transitionSteps, type Step, type StepResults } from './plans';
import { checkoutFromRow as fromRow, eventFromRow, merchantEventFromRow, toJson, type Row } from './rows';
import { ActivationSchema, EventSourceSchema, InstantSchema, NewCheckoutSchema, type Store } from './types';
import { checkoutStateOf, eventSourceOf, instantOf } from './input-checks';

export interface PostgresStoreOptions {
  connectionString: string;
  maxConnections?: number;
  /** Receives errors of idle pooled connections, which `pg` emits rather than throws. */
  onError?: (error: unknown) => void;
  /** The online half of the pending schema steps starts after this (tests hold it); a second after opening by default. */
  onlineMigrationsAfter?: Promise<void>;
}

const RESERVING = sqlList(RESERVING_STATES);
const LIVE = sqlList(LIVE_STATES);
/** SQLSTATE of a unique index violation. */
const UNIQUE_VIOLATION = '23505';

/** Resolves after the migrations are applied; rejects (and closes the pool) when the database is unreachable. */
export async function openPostgresStore({
  connectionString,
  maxConnections = 10,
  onError = (error) => console.error('postgres store:', error),
  onlineMigrationsAfter,
}: PostgresStoreOptions): Promise<Store> {
  const pool = new pg.Pool({ connectionString, max: maxConnections, options: UTC_SESSION, types: storeTypes });
  pool.on('error', onError);
  const pending = await migratePostgres(pool).catch(async (error) => {
    await pool.end();
    throw error;
  });
  const online = buildOnlinePostgres(pool, pending, onlineMigrationsAfter ? { after: onlineMigrationsAfter } : {});
  // The store goes on without the indexes (slower lists, the same rows); the next start builds them again.
  online.done.catch((error: unknown) => onError(new Error('an online schema step failed; the next start tries again', { cause: error })));

  const parts = postgresDb(pool);
  const one = async (text: string, values: unknown[], client: pg.Pool | pg.PoolClient = pool) =>
    (await client.query<Row>(text, values)).rows[0];
  const all = async (text: string, values: unknown[]) => (await pool.query<Row>(text, values)).rows;
  const checkoutFromRow = (row: Row) => fromRow(row, 'parsed');
  const maybeCheckout = (row: Row | undefined) => (row ? checkoutFromRow(row) : undefined);

  const insertEvent = `
    INSERT INTO checkout_events (checkout_id, seq, state, source, at, data)
    VALUES ($1, $2, $3, $4, $5, $6::jsonb)
    RETURNING *`;

  /** Carries out the state machine's plan (./plans) on one client inside its transaction; reads lock their rows. */
  const stepsOn =
    (client: pg.PoolClient) =>
    async (step: Step): Promise<StepResults[Step['step']]> => {
      switch (step.step) {
        case 'read':
          return maybeCheckout(await one('SELECT * FROM checkouts WHERE id = $1 FOR UPDATE', [step.id], client));
        case 'holder':
          return (await one(
            `SELECT id, state FROM checkouts
             WHERE order_id = (SELECT order_id FROM checkouts WHERE id = $1) AND id <> $1
               AND state IN (${RESERVING}) AND duplicate_of IS NULL
             LIMIT 1 FOR UPDATE`,
            [step.id],
            client,
          )) as { id: string; state: StoredState } | undefined;
        case 'move': {
          const { move } = step;
          const row = await one(
            `UPDATE checkouts SET state = $3, seq = seq + 1, updated_at = $4, details = details || $5::jsonb,
               duplicate_of = $6, transaction_id = COALESCE($7, transaction_id), expires_at = COALESCE($8, expires_at),
               last_checked_at = GREATEST(last_checked_at, $9::timestamptz), last_webhook_at = GREATEST(last_webhook_at, $10::timestamptz)
             WHERE id = $1 AND state = $2 RETURNING *`,
            [
              move.id,
              move.from,
              move.to,
              move.at,
              toJson(move.details),
              move.duplicateOf,
              move.transactionId ?? null,
              move.expiresAt ?? null,
              move.checkedAt ?? null,
              move.webhookAt ?? null,
            ],
            client,
          );
          return row && checkoutFromRow(row);
        }
        case 'insert': {
          // No conflict target: a stored transaction id and a taken one-per-order place both make it insert nothing.
          const { draft, fields, duplicateOf, at } = step.insert;
          const row = await one(
            `INSERT INTO checkouts (id, order_id, method, state, amount_cents, currency, description, payer_cpf,
               payer_name, details, transaction_id, duplicate_of, seq, created_at, updated_at, expires_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10::jsonb, $11, $12, 1, $13, $14, $15)
             ON CONFLICT DO NOTHING
             RETURNING *`,
            [
              draft.id,
              draft.orderId,
              draft.method,
              fields.state,
              draft.amountCents,
              draft.currency,
              draft.description,
              draft.payerCpf,
              draft.payerName,
              toJson({ ...draft.details, ...fields.details }),
              fields.transactionId,
              duplicateOf,
              draft.createdAt,
              at,
              fields.expiresAt ?? draft.expiresAt,
            ],
            client,
          );
          return row && checkoutFromRow(row);
        }
        case 'merchant':
          await insertMerchantEvent(client, step.event);
          return undefined;
        case 'event': {
          const { checkoutId, seq, state, source, at, data } = step.event;
          return eventFromRow((await one(insertEvent, [checkoutId, seq, state, source, at, toJson(data)], client))!, 'parsed');
        }
      }
    };

  return {
    ...backOfficePart(parts),
    ...companyPaymentsPart(parts),
    ...deliveriesPart(parts),
    ...endpointsPart(parts),
    ...deliveryLogPart(parts),
    ...accountsPart(parts),
    ...reconcilePart(parts),
    async reserveCheckout(input) {
      const draft = NewCheckoutSchema.parse(input);
      // The existing checkout can be discarded between the two statements; then the next insert succeeds.
      for (let attempt = 0; attempt < 5; attempt++) {
        const inserted = await one(
          `INSERT INTO checkouts (id, order_id, method, state, amount_cents, currency, description, payer_cpf,
             payer_name, details, seq, created_at, updated_at, expires_at)
           VALUES ($1, $2, $3, 'Creating', $4, $5, $6, $7, $8, $9::jsonb, 0, $10, $10, $11)
           ON CONFLICT (order_id) WHERE state IN (${RESERVING}) AND duplicate_of IS NULL DO NOTHING
           RETURNING *`,
          [
            draft.id,
            draft.orderId,
            draft.method,
            draft.amountCents,
            draft.currency,
            draft.description,
            draft.payerCpf,
            draft.payerName,
            toJson(draft.details),
            draft.createdAt,
            draft.expiresAt,
          ],
        );
        if (inserted) return { created: true, checkout: checkoutFromRow(inserted) };
        const existing = await one(`SELECT * FROM checkouts WHERE order_id = $1 AND state IN (${RESERVING}) AND duplicate_of IS NULL`, [
          draft.orderId,
        ]);
        if (existing) return { created: false, checkout: checkoutFromRow(existing) };
      }
      throw new Error(`order ${draft.orderId}: reservation kept conflicting with checkouts that then disappeared`);
    },
    async activateCheckout(id, input, atInput) {
      const fields = ActivationSchema.parse(input);
      const at = InstantSchema.parse(atInput);
      return inTransaction(pool, (client) => driveAsync(activationSteps(id, fields, at), stepsOn(client)));
    },
    async discardCheckout(id) {
      await pool.query(`DELETE FROM checkouts WHERE id = $1 AND state = 'Creating'`, [id]);
    },
    async getCheckout(id) {
      return maybeCheckout(await one('SELECT * FROM checkouts WHERE id = $1', [id]));
    },
    async findCheckoutByTransaction(transactionId) {
      return maybeCheckout(await one('SELECT * FROM checkouts WHERE transaction_id = $1', [transactionId]));
    },
    async findCheckoutsByOrder(orderId) {
      return (await all('SELECT * FROM checkouts WHERE order_id = $1 ORDER BY created_at, id', [orderId])).map(checkoutFromRow);
    },
    async transition(id, fromInput, toInput, sourceInput, data, atInput, changes = {}) {
      const from = fromInput.map(checkoutStateOf);
      const to = checkoutStateOf(toInput);
      const source = eventSourceOf(sourceInput);
      const at = instantOf(atInput);
      const attempt = () =>
        inTransaction(pool, (client) => driveAsync(transitionSteps(id, from, to, source, data, at, changes), stepsOn(client)));
      // Under READ COMMITTED a reservation committed between the look-up of the order's place and the update breaks
      // the one-per-order index: look again, and this time the new checkout is the holder.
      for (let tries = 1; ; tries++) {
        try {
          return await attempt();
        } catch (error) {
          if (tries >= 3 || (error as { code?: string }).code !== UNIQUE_VIOLATION) throw error;
        }
      }
    },
    async merchantEventsAfter(afterSeq, limit, types) {
      const rows = await all(
        'SELECT * FROM merchant_events WHERE seq > $1 AND ($3::text[] IS NULL OR type = ANY($3)) ORDER BY seq LIMIT $2',
        [afterSeq, limit, types?.length ? types : null],
      );
      return rows.map((row) => merchantEventFromRow(row, 'parsed'));
    },
    async eventsAfter(checkoutId, afterSeq) {
      const rows = await all('SELECT * FROM checkout_events WHERE checkout_id = $1 AND seq > $2 ORDER BY seq', [checkoutId, afterSeq]);
      return rows.map((row) => eventFromRow(row, 'parsed'));
    },
    // GREATEST skips NULL and keeps the later date when a slow request finishes after a newer one.
    async markWebhookSeen(id, at) {
      await pool.query('UPDATE checkouts SET last_webhook_at = GREATEST(last_webhook_at, $2) WHERE id = $1', [id, instantOf(at)]);
    },
    async markChecked(id, at) {
      await pool.query('UPDATE checkouts SET last_checked_at = GREATEST(last_checked_at, $2) WHERE id = $1', [id, instantOf(at)]);
    },
    async claimWebhookNonce(nonce, at, forgetBefore) {
      await pool.query('DELETE FROM webhook_nonces WHERE seen_at < $1', [InstantSchema.parse(forgetBefore)]);
      const inserted = await pool.query('INSERT INTO webhook_nonces (nonce, seen_at) VALUES ($1, $2) ON CONFLICT (nonce) DO NOTHING', [
        nonce,
        InstantSchema.parse(at),
      ]);
      return inserted.rowCount === 1;
    },
    async releaseWebhookNonce(nonce) {
      await pool.query('DELETE FROM webhook_nonces WHERE nonce = $1', [nonce]);
    },
    async insertActive(input, fieldsInput, sourceInput, duplicateOf, atInput) {
      const [draft, fields, source, at] = [
        NewCheckoutSchema.parse(input),
        ActivationSchema.parse(fieldsInput),
        EventSourceSchema.parse(sourceInput),
        InstantSchema.parse(atInput),
      ];
      return inTransaction(pool, (client) => driveAsync(insertSteps(draft, fields, source, duplicateOf, at), stepsOn(client)));
    },
    async insertSuperseding(input, fieldsInput, sourceInput, holderId, atInput) {
      const [draft, fields, source, at] = [
        NewCheckoutSchema.parse(input),
        ActivationSchema.parse(fieldsInput),
        EventSourceSchema.parse(sourceInput),
        InstantSchema.parse(atInput),
      ];
      return inTransaction(pool, (client) => driveAsync(supersedingInsertSteps(draft, fields, source, holderId, at), stepsOn(client)));
    },
    async listExpiredCheckouts(now, limit) {
      const rows = await all(`SELECT * FROM checkouts WHERE state IN (${LIVE}) AND expires_at <= $1 ORDER BY expires_at, id LIMIT $2`, [
        InstantSchema.parse(now),
        limit,
      ]);
      return rows.map(checkoutFromRow);
    },
    async close() {
      await online.stop();
      await pool.end();
    },
  };
}

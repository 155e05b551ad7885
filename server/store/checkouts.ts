/**
 * The checkouts' part of the store (./checkout-store's `CheckoutStore`, `WebhookNonceStore` and
 * `MerchantEventStore`), written once for both databases (`checkoutsPart`): the statements in ./checkouts-sql, the
 * state machine's plans in ./plans, carried out here step by step. A reservation, an activation, a move and an
 * adoption are each one write transaction: SQLite's BEGIN IMMEDIATE, run synchronously with its cached statements;
 * PostgreSQL's BEGIN … COMMIT on one client, whose plan reads lock their rows (`FOR UPDATE`), so under READ
 * COMMITTED a second concurrent move waits for the row lock, re-reads the state, and changes nothing.
 */
import type { PlaceHolder } from '../../core/checkout-machine';
import type { CheckoutStore, MerchantEventStore, WebhookNonceStore } from './checkout-store';
import { checkoutStatements } from './checkouts-sql';
import { eventSourceOf, instantOf, moveEventOf } from './input-checks';
import { merchantEventWriter } from './merchant-event-writes';
import { activationSteps, applySteps, insertSteps, supersedingInsertSteps, type Step, type Steps, type StepResults } from './plans';
import { checkoutFromRow, eventFromRow, merchantEventFromRow, toJson, type Row } from './rows';
import type { Db } from './sql/db';
import { all, get, run, type Work } from './sql/work';
import {
  ActivationSchema,
  EventSourceSchema,
  InstantSchema,
  NewCheckoutSchema,
  type Activation,
  type EventSource,
  type NewCheckout,
  type ReserveResult,
} from './types';

export type CheckoutsPart = CheckoutStore & WebhookNonceStore & MerchantEventStore;

/** How many times a reservation is tried when the checkout it conflicted with is gone by the time it is read. */
const RESERVE_ATTEMPTS = 5;
/**
 * How many times a move is tried on PostgreSQL: under READ COMMITTED a reservation committed between the look-up
 * of the order's place holder and the update breaks the one-per-order index; the next try finds it as the holder.
 */
const MOVE_ATTEMPTS = 3;

/** An adopted provider transaction's inputs (`insertActive`, `insertSuperseding`), checked by their schemas. */
const adoptionOf = (draft: NewCheckout, fields: Activation, source: EventSource, at: string) => ({
  draft: NewCheckoutSchema.parse(draft),
  fields: ActivationSchema.parse(fields),
  source: EventSourceSchema.parse(source),
  at: InstantSchema.parse(at),
});

export function checkoutsPart(db: Db): CheckoutsPart {
  const d = db.dialect;
  const sql = checkoutStatements(d);
  const merchantEvents = merchantEventWriter(d);
  const checkout = (row: Row | undefined) => (row ? checkoutFromRow(row, d.rows) : undefined);
  /**
   * Where the few statements of a reservation and a nonce's claim run: on SQLite in one BEGIN IMMEDIATE
   * transaction, so another process on the file cannot come in between; on PostgreSQL on the pool, each statement
   * atomic, with no BEGIN … COMMIT round trips, and the work copes with what may come in between.
   */
  const briefly = <T>(work: () => Work<T>): Promise<T> => (d.name === 'sqlite' ? db.write(work) : db.read(work));

  /** Carries out one step of the state machine's plan (./plans) inside the current write transaction. */
  function* step(next: Step): Work<StepResults[Step['step']]> {
    switch (next.step) {
      case 'read':
        return checkout(yield* get(sql.lockById, { id: next.id }));
      case 'holder':
        return yield* get<PlaceHolder>(sql.holder, { id: next.id });
      case 'move': {
        const { move } = next;
        const activating = move.transactionId !== undefined || move.expiresAt !== undefined;
        return checkout(yield* get(activating ? sql.moveActivating : sql.move, { ...move, details: toJson(move.details) }));
      }
      case 'insert': {
        const { draft, fields, duplicateOf, at } = next.insert;
        const row = yield* get(sql.insertActive, {
          ...draft,
          state: fields.state,
          transactionId: fields.transactionId,
          details: toJson({ ...draft.details, ...fields.details }),
          duplicateOf,
          expiresAt: fields.expiresAt ?? draft.expiresAt,
          at,
        });
        return checkout(row);
      }
      case 'merchant':
        yield* merchantEvents.write(next.event);
        return undefined;
      case 'event':
        return eventFromRow((yield* get(sql.insertEvent, { ...next.event, data: toJson(next.event.data) }))!, d.rows);
    }
  }
  /** The plan carried out, its steps answered in turn. */
  function* carryOut<T>(plan: Steps<T>): Work<T> {
    let next = plan.next();
    while (!next.done) next = plan.next(yield* step(next.value));
    return next.value;
  }

  function* reserve(draft: ReturnType<typeof NewCheckoutSchema.parse>): Work<ReserveResult> {
    const params = { ...draft, details: toJson(draft.details) };
    // On PostgreSQL the checkout it conflicted with can be discarded before the read; then the next insert succeeds.
    for (let attempt = 0; attempt < RESERVE_ATTEMPTS; attempt++) {
      const inserted = yield* get(sql.reserve, params);
      if (inserted) return { created: true, checkout: checkoutFromRow(inserted, d.rows) };
      const existing = yield* get(sql.reserving, { orderId: draft.orderId });
      if (existing) return { created: false, checkout: checkoutFromRow(existing, d.rows) };
    }
    throw new Error(`order ${draft.orderId}: reservation kept conflicting with checkouts that then disappeared`);
  }

  function* claimNonce(nonce: string, seenAt: string, forgetBefore: string): Work<boolean> {
    yield* run(sql.forgetNonces, { forgetBefore });
    return (yield* run(sql.claimNonce, { nonce, seenAt })) === 1;
  }

  return {
    async reserveCheckout(input) {
      const draft = NewCheckoutSchema.parse(input);
      return briefly(() => reserve(draft));
    },
    async activateCheckout(id, input, atInput) {
      const fields = ActivationSchema.parse(input);
      const at = InstantSchema.parse(atInput);
      return db.write(() => carryOut(activationSteps(id, fields, at)));
    },
    async discardCheckout(id) {
      await db.read(() => run(sql.discard, { id }));
    },
    async getCheckout(id) {
      return checkout(await db.read(() => get(sql.byId, { id })));
    },
    async findCheckoutByTransaction(transactionId) {
      return checkout(await db.read(() => get(sql.byTransaction, { transactionId })));
    },
    async findCheckoutsByOrder(orderId) {
      return (await db.read(() => all(sql.byOrder, { orderId }))).map((row) => checkoutFromRow(row, d.rows));
    },
    async apply(id, eventInput, sourceInput, data, atInput, changes = {}) {
      const event = moveEventOf(eventInput);
      const source = eventSourceOf(sourceInput);
      const at = instantOf(atInput);
      return db.write(() => carryOut(applySteps(id, event, source, data, at, changes)), { attempts: MOVE_ATTEMPTS });
    },
    async insertActive(draft, fields, source, duplicateOf, at) {
      const adopted = adoptionOf(draft, fields, source, at);
      return db.write(() => carryOut(insertSteps(adopted.draft, adopted.fields, adopted.source, duplicateOf, adopted.at)));
    },
    async insertSuperseding(draft, fields, source, holderId, at) {
      const adopted = adoptionOf(draft, fields, source, at);
      return db.write(() => carryOut(supersedingInsertSteps(adopted.draft, adopted.fields, adopted.source, holderId, adopted.at)));
    },
    async markWebhookSeen(id, at) {
      await db.read(() => run(sql.webhookSeen, { id, at: instantOf(at) }));
    },
    async markChecked(id, at) {
      await db.read(() => run(sql.checked, { id, at: instantOf(at) }));
    },
    async eventsAfter(checkoutId, after) {
      return (await db.read(() => all(sql.eventsAfter, { checkoutId, after }))).map((row) => eventFromRow(row, d.rows));
    },
    async listExpiredCheckouts(now, limit) {
      const params = { now: InstantSchema.parse(now), limit };
      return (await db.read(() => all(sql.expired, params))).map((row) => checkoutFromRow(row, d.rows));
    },
    async merchantEventsAfter(after, limit, types) {
      const params = { after, limit, types: types?.length ? d.list(types) : null };
      return (await db.read(() => all(sql.merchantEventsAfter, params))).map((row) => merchantEventFromRow(row, d.rows));
    },
    async claimWebhookNonce(nonce, at, forgetBefore) {
      const [seenAt, before] = [InstantSchema.parse(at), InstantSchema.parse(forgetBefore)];
      return briefly(() => claimNonce(nonce, seenAt, before));
    },
    async releaseWebhookNonce(nonce) {
      await db.read(() => run(sql.releaseNonce, { nonce }));
    },
  };
}

/**
 * The merchant's webhook endpoints kept in the store (besides the one of the environment, MERCHANT_WEBHOOK_URL, which
 * is not stored), and the log of each event's deliveries to them (./deliveries), schema step 11. The endpoints are
 * written once for both databases (`endpointsPart`), and so is the log's half, in `delivery-log.ts`. A change that
 * touches more than the endpoint's row (its cursor, its deliveries, its health) is one write transaction.
 *
 * Rules kept here so both databases agree:
 * - an endpoint gets the events written from its creation on, only the types of its filter (none: every type);
 * - a disabled endpoint gets nothing: the events written while it is disabled are passed over for it, and enabling
 *   it queues those written from then on (the pull feed and a redelivery recover the others). Deliveries queued
 *   before it was disabled wait, and go once it is enabled;
 * - a rotation keeps the previous secret beside the new one until `previousUntil` or until the rotation is finished,
 *   whichever comes first; a second rotation drops the oldest, so an endpoint has two secrets at most;
 * - the secrets are kept sealed (server/lib/sealer.ts, the endpoint's id as context; ./sealed-columns.ts), and a
 *   clear one is refused: the store never sees a secret in clear, only its last four characters (`secretHint`),
 *   what the console's list shows. Rows from before schema step 25 are sealed at the next start;
 * - `failingSince` is the first failed attempt since its last 2xx; an endpoint failing since before the cutoff it is
 *   given is disabled by itself, with the reason `failing`.
 */
import type { WebhookAttempt } from './deliveries';
import { isSealed } from '../lib/sealer';
import { endpointFromRow } from './endpoint-rows';
import type { Row } from './rows';
import type { Db } from './sql/db';
import { all, get, run } from './sql/work';

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
  /** `whsec_…`, sealed with the endpoint's id as context. */
  secret: string;
  /** Its last four characters. */
  secretHint: string;
  createdAt: string;
}

export interface StoredWebhookEndpoint {
  id: string;
  url: string;
  types: string[];
  /** Sealed (clear only between schema step 25 and the next start, which seals it). */
  secret: string;
  secretHint: string | null;
  /** The secret before the last rotation, signing too until `previousUntil`; sealed as `secret`. */
  previousSecret: string | null;
  previousSecretHint: string | null;
  previousUntil: string | null;
  disabled: EndpointDisabled | null;
  /** The first failed attempt since the last 2xx; null when the last attempt was a 2xx (or none was made). */
  failingSince: string | null;
  createdAt: string;
}

/** Whether the previous secret still signs at `now` (a rotation runs). */
const rotating = (endpoint: StoredWebhookEndpoint, now: Date) =>
  endpoint.previousSecret !== null && endpoint.previousUntil !== null && Date.parse(endpoint.previousUntil) > now.getTime();

/** The secrets an endpoint signs with at `now`, as stored (sealed): its own, and the previous one while a rotation runs. */
export function signingSecrets(endpoint: StoredWebhookEndpoint, now: Date): string[] {
  return rotating(endpoint, now) ? [endpoint.secret, endpoint.previousSecret!] : [endpoint.secret];
}

/** The last four characters of each secret `signingSecrets` gives. */
export function signingHints(endpoint: StoredWebhookEndpoint, now: Date): string[] {
  const hints = [endpoint.secretHint ?? ''];
  return rotating(endpoint, now) ? [...hints, endpoint.previousSecretHint ?? ''] : hints;
}

/** A secret given to the store must be sealed: a clear one is a programming error, refused before it is written. */
function sealedOnly(secret: string) {
  if (!isSealed(secret)) throw new Error('an endpoint secret must be sealed before it is stored');
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
  /** Makes `secret` (sealed; its last four characters `hint`) its secret, the current one its previous until `previousUntil`. */
  rotateWebhookEndpointSecret(id: string, secret: string, hint: string, previousUntil: string): Promise<StoredWebhookEndpoint | undefined>;
  /** Drops the previous secret. */
  finishWebhookEndpointRotation(id: string): Promise<StoredWebhookEndpoint | undefined>;
  /**
   * Notes an attempt's outcome for the endpoint's health, and disables it (reason `failing`, since `at`) when it has
   * been failing since `disableIfFailingSince` or before. True when this call disabled it.
   */
  noteEndpointAttempt(id: string, at: string, delivered: boolean, disableIfFailingSince: string): Promise<boolean>;
}

export type { DeliveryLogStore } from './delivery-log';

export function endpointsPart(db: Db): EndpointStore {
  const d = db.dialect;
  const sql = {
    insert: `
      INSERT INTO webhook_endpoints (id, url, types, secret, secret_hint, created_at)
      VALUES (@id, @url, ${d.json('types')}, @secret, @secretHint, @createdAt)
      RETURNING *`,
    // The endpoint's cursor at the end of the feed: it gets the events written from now on.
    cursorToEnd: `
      INSERT INTO webhook_cursors (endpoint_id, after_seq) VALUES (@id, (SELECT coalesce(max(seq), 0) FROM merchant_events))
      ON CONFLICT (endpoint_id) DO UPDATE SET after_seq = excluded.after_seq`,
    list: `SELECT * FROM webhook_endpoints ORDER BY created_at, ${d.textOrder('id')}`,
    get: `SELECT * FROM webhook_endpoints WHERE id = @id`,
    disable: `
      UPDATE webhook_endpoints SET disabled_reason = @reason, disabled_at = @since WHERE id = @id AND disabled_reason IS NULL`,
    enable: `
      UPDATE webhook_endpoints SET disabled_reason = NULL, disabled_at = NULL, failing_since = NULL WHERE id = @id
      RETURNING *`,
    remove: `DELETE FROM webhook_endpoints WHERE id = @id`,
    removeCursor: `DELETE FROM webhook_cursors WHERE endpoint_id = @id`,
    removeDeliveries: `DELETE FROM webhook_deliveries WHERE endpoint_id = @id`,
    rotate: `
      UPDATE webhook_endpoints SET previous_secret = secret, previous_secret_hint = secret_hint, previous_until = @previousUntil,
        secret = @secret, secret_hint = @hint
      WHERE id = @id
      RETURNING *`,
    finish: `
      UPDATE webhook_endpoints SET previous_secret = NULL, previous_secret_hint = NULL, previous_until = NULL WHERE id = @id
      RETURNING *`,
    health: `
      UPDATE webhook_endpoints SET failing_since = CASE WHEN @delivered THEN NULL ELSE coalesce(failing_since, @at) END
      WHERE id = @id`,
    failing: `
      UPDATE webhook_endpoints SET disabled_reason = 'failing', disabled_at = @at
      WHERE id = @id AND disabled_reason IS NULL AND failing_since <= @cutoff`,
  };
  const endpoint = (row: Row | undefined) => (row ? endpointFromRow(row, d.rows) : undefined);

  return {
    async addWebhookEndpoint({ id, url, types, secret, secretHint, createdAt }) {
      sealedOnly(secret);
      const params = { id, url, types: JSON.stringify(types), secret, secretHint, createdAt };
      return db.write(function* () {
        const added = yield* get(sql.insert, params);
        yield* run(sql.cursorToEnd, { id });
        return endpointFromRow(added!, d.rows);
      });
    },
    async listWebhookEndpoints() {
      return (await db.read(() => all(sql.list))).map((row) => endpointFromRow(row, d.rows));
    },
    async getWebhookEndpoint(id) {
      return endpoint(await db.read(() => get(sql.get, { id })));
    },
    async disableWebhookEndpoint(id, { reason, since }) {
      return db.read(function* () {
        yield* run(sql.disable, { id, reason, since });
        return endpoint(yield* get(sql.get, { id }));
      });
    },
    async enableWebhookEndpoint(id) {
      return db.write(function* () {
        const enabled = yield* get(sql.enable, { id });
        if (!enabled) return undefined;
        yield* run(sql.cursorToEnd, { id });
        return endpointFromRow(enabled, d.rows);
      });
    },
    async deleteWebhookEndpoint(id) {
      return db.write(function* () {
        yield* run(sql.removeCursor, { id });
        yield* run(sql.removeDeliveries, { id });
        return (yield* run(sql.remove, { id })) === 1;
      });
    },
    async rotateWebhookEndpointSecret(id, secret, hint, previousUntil) {
      sealedOnly(secret);
      return endpoint(await db.read(() => get(sql.rotate, { id, secret, hint, previousUntil })));
    },
    async finishWebhookEndpointRotation(id) {
      return endpoint(await db.read(() => get(sql.finish, { id })));
    },
    async noteEndpointAttempt(id, at, delivered, disableIfFailingSince) {
      const params = { id, at, delivered, cutoff: disableIfFailingSince };
      return db.write(function* () {
        yield* run(sql.health, params);
        return (yield* run(sql.failing, params)) === 1;
      });
    },
  };
}

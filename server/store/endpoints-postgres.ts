/** The endpoints part of the PostgreSQL store (see `endpoints.ts`; its delivery log is `delivery-log.ts`); same behaviour as SQLite's. */
import type pg from 'pg';
import { endpointFromRow } from './endpoint-rows';
import type { EndpointStore } from './endpoints';
import { inTransaction } from './pg-transaction';
import type { Row } from './rows';

/** The endpoint's cursor at the end of the feed: it gets the events written from now on. */
const CURSOR_TO_END = `
  INSERT INTO webhook_cursors (endpoint_id, after_seq) SELECT $1, coalesce(max(seq), 0) FROM merchant_events
  ON CONFLICT (endpoint_id) DO UPDATE SET after_seq = excluded.after_seq`;

export function endpointsPostgres(pool: pg.Pool): EndpointStore {
  const one = async (text: string, values: unknown[]) => {
    const row = (await pool.query<Row>(text, values)).rows[0];
    return row ? endpointFromRow(row, 'parsed') : undefined;
  };

  return {
    async addWebhookEndpoint({ id, url, types, secret, createdAt }) {
      return inTransaction(pool, async (client) => {
        const { rows } = await client.query<Row>(
          `INSERT INTO webhook_endpoints (id, url, types, secret, created_at) VALUES ($1, $2, $3::jsonb, $4, $5) RETURNING *`,
          [id, url, JSON.stringify(types), secret, createdAt],
        );
        await client.query(CURSOR_TO_END, [id]);
        return endpointFromRow(rows[0]!, 'parsed');
      });
    },
    async listWebhookEndpoints() {
      const { rows } = await pool.query<Row>('SELECT * FROM webhook_endpoints ORDER BY created_at, id COLLATE "C"');
      return rows.map((row) => endpointFromRow(row, 'parsed'));
    },
    async getWebhookEndpoint(id) {
      return one('SELECT * FROM webhook_endpoints WHERE id = $1', [id]);
    },
    async disableWebhookEndpoint(id, { reason, since }) {
      await pool.query('UPDATE webhook_endpoints SET disabled_reason = $2, disabled_at = $3 WHERE id = $1 AND disabled_reason IS NULL', [
        id,
        reason,
        since,
      ]);
      return one('SELECT * FROM webhook_endpoints WHERE id = $1', [id]);
    },
    async enableWebhookEndpoint(id) {
      return inTransaction(pool, async (client) => {
        const { rows } = await client.query<Row>(
          `UPDATE webhook_endpoints SET disabled_reason = NULL, disabled_at = NULL, failing_since = NULL WHERE id = $1 RETURNING *`,
          [id],
        );
        if (!rows[0]) return undefined;
        await client.query(CURSOR_TO_END, [id]);
        return endpointFromRow(rows[0], 'parsed');
      });
    },
    async deleteWebhookEndpoint(id) {
      return inTransaction(pool, async (client) => {
        await client.query('DELETE FROM webhook_cursors WHERE endpoint_id = $1', [id]);
        await client.query('DELETE FROM webhook_deliveries WHERE endpoint_id = $1', [id]);
        return ((await client.query('DELETE FROM webhook_endpoints WHERE id = $1', [id])).rowCount ?? 0) === 1;
      });
    },
    async rotateWebhookEndpointSecret(id, secret, previousUntil) {
      return one(`UPDATE webhook_endpoints SET previous_secret = secret, previous_until = $3, secret = $2 WHERE id = $1 RETURNING *`, [
        id,
        secret,
        previousUntil,
      ]);
    },
    async finishWebhookEndpointRotation(id) {
      return one('UPDATE webhook_endpoints SET previous_secret = NULL, previous_until = NULL WHERE id = $1 RETURNING *', [id]);
    },
    async noteEndpointAttempt(id, at, delivered, disableIfFailingSince) {
      return inTransaction(pool, async (client) => {
        await client.query(
          `UPDATE webhook_endpoints SET failing_since = CASE WHEN $3 THEN NULL ELSE coalesce(failing_since, $2) END WHERE id = $1`,
          [id, at, delivered],
        );
        const disabled = await client.query(
          `UPDATE webhook_endpoints SET disabled_reason = 'failing', disabled_at = $2
           WHERE id = $1 AND disabled_reason IS NULL AND failing_since <= $3`,
          [id, at, disableIfFailingSince],
        );
        return disabled.rowCount === 1;
      });
    },
  };
}

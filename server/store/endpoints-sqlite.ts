/** The endpoints part of the SQLite store (see `endpoints.ts`; its delivery log is `delivery-log.ts`); writes run in BEGIN IMMEDIATE. */
import type Database from 'better-sqlite3';
import { endpointFromRow } from './endpoint-rows';
import type { EndpointStore } from './endpoints';
import type { Row } from './rows';

export function endpointsSqlite(db: Database.Database): EndpointStore {
  const sql = {
    insert: db.prepare(`
      INSERT INTO webhook_endpoints (id, url, types, secret, created_at) VALUES (@id, @url, @types, @secret, @createdAt)
      RETURNING *`),
    // The endpoint's cursor at the end of the feed: it gets the events written from now on.
    cursorToEnd: db.prepare(`
      INSERT INTO webhook_cursors (endpoint_id, after_seq) VALUES (?, (SELECT coalesce(max(seq), 0) FROM merchant_events))
      ON CONFLICT (endpoint_id) DO UPDATE SET after_seq = excluded.after_seq`),
    list: db.prepare(`SELECT * FROM webhook_endpoints ORDER BY created_at, id`),
    get: db.prepare(`SELECT * FROM webhook_endpoints WHERE id = ?`),
    disable: db.prepare(`
      UPDATE webhook_endpoints SET disabled_reason = @reason, disabled_at = @since WHERE id = @id AND disabled_reason IS NULL`),
    enable: db.prepare(`UPDATE webhook_endpoints SET disabled_reason = NULL, disabled_at = NULL, failing_since = NULL WHERE id = ?`),
    remove: db.prepare(`DELETE FROM webhook_endpoints WHERE id = ?`),
    removeCursor: db.prepare(`DELETE FROM webhook_cursors WHERE endpoint_id = ?`),
    removeDeliveries: db.prepare(`DELETE FROM webhook_deliveries WHERE endpoint_id = ?`),
    rotate: db.prepare(`
      UPDATE webhook_endpoints SET previous_secret = secret, previous_until = @previousUntil, secret = @secret WHERE id = @id
      RETURNING *`),
    finish: db.prepare(`UPDATE webhook_endpoints SET previous_secret = NULL, previous_until = NULL WHERE id = ? RETURNING *`),
    health: db.prepare(`
      UPDATE webhook_endpoints SET failing_since = CASE WHEN @delivered THEN NULL ELSE coalesce(failing_since, @at) END
      WHERE id = @id`),
    failing: db.prepare(`
      UPDATE webhook_endpoints SET disabled_reason = 'failing', disabled_at = @at
      WHERE id = @id AND disabled_reason IS NULL AND failing_since <= @cutoff`),
  };
  const endpoint = (row: unknown) => (row ? endpointFromRow(row as Row, 'text') : undefined);

  const add = db.transaction((row: Record<string, unknown>) => {
    const added = sql.insert.get(row);
    sql.cursorToEnd.run(row.id);
    return endpointFromRow(added as Row, 'text');
  });
  const enable = db.transaction((id: string) => {
    if (sql.enable.run(id).changes === 0) return undefined;
    sql.cursorToEnd.run(id);
    return endpoint(sql.get.get(id));
  });
  const remove = db.transaction((id: string) => {
    sql.removeCursor.run(id);
    sql.removeDeliveries.run(id);
    return sql.remove.run(id).changes === 1;
  });
  const note = db.transaction((params: { id: string; at: string; delivered: number; cutoff: string }) => {
    sql.health.run(params);
    return sql.failing.run(params).changes === 1;
  });

  return {
    async addWebhookEndpoint({ id, url, types, secret, createdAt }) {
      return add.immediate({ id, url, types: JSON.stringify(types), secret, createdAt });
    },
    async listWebhookEndpoints() {
      return (sql.list.all() as Row[]).map((row) => endpointFromRow(row, 'text'));
    },
    async getWebhookEndpoint(id) {
      return endpoint(sql.get.get(id));
    },
    async disableWebhookEndpoint(id, { reason, since }) {
      sql.disable.run({ id, reason, since });
      return endpoint(sql.get.get(id));
    },
    async enableWebhookEndpoint(id) {
      return enable.immediate(id);
    },
    async deleteWebhookEndpoint(id) {
      return remove.immediate(id);
    },
    async rotateWebhookEndpointSecret(id, secret, previousUntil) {
      return endpoint(sql.rotate.get({ id, secret, previousUntil }));
    },
    async finishWebhookEndpointRotation(id) {
      return endpoint(sql.finish.get(id));
    },
    async noteEndpointAttempt(id, at, delivered, disableIfFailingSince) {
      return note.immediate({ id, at, delivered: delivered ? 1 : 0, cutoff: disableIfFailingSince });
    },
  };
}

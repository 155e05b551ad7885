/**
 * A user's own sessions as the console lists and ends them (`/api/admin/me/sessions`), written once for both
 * databases over the columns of schema step 23. Each call names the user, so a session of someone else is never
 * listed or ended; the ended sessions' token hashes come back to the caller only so it can end what they opened (a
 * live stream), never to be shown.
 */
import { type StoredSession } from './accounts';
import { sessionFromRow } from './accounts-rows';
import type { Row } from './rows';
import type { Db } from './sql/db';
import { all } from './sql/work';

export interface SessionListStore {
  /** The sessions of `userId`, whatever their age, newest first. */
  listUserSessions(userId: string): Promise<StoredSession[]>;
  /** Deletes the session `id` if it is `userId`'s; resolves with its token hash, undefined when it has none such. */
  endUserSession(userId: string, id: string): Promise<string | undefined>;
  /** Deletes every session of `userId` but the one of `keepTokenHash`; resolves with the token hashes deleted. */
  endOtherSessions(userId: string, keepTokenHash: string): Promise<string[]>;
}

/** The session columns as `sessionFromRow` reads them (`s_…`). */
const COLUMNS = `token_hash AS s_token_hash, user_id AS s_user_id, created_at AS s_created_at, expires_at AS s_expires_at,
  last_seen_at AS s_last_seen_at, id AS s_id, device AS s_device, address AS s_address`;

const hashes = (rows: Row[]) => rows.map((row) => String(row.token_hash));

export function sessionListPart(db: Db): SessionListStore {
  const d = db.dialect;
  const sql = {
    list: `SELECT ${COLUMNS} FROM admin_sessions WHERE user_id = @userId ORDER BY created_at DESC, ${d.textOrder('id')}`,
    endOne: `DELETE FROM admin_sessions WHERE user_id = @userId AND id = @id RETURNING token_hash`,
    endOthers: `DELETE FROM admin_sessions WHERE user_id = @userId AND token_hash <> @keep RETURNING token_hash`,
  };
  return {
    async listUserSessions(userId) {
      return (await db.read(() => all(sql.list, { userId }))).map(sessionFromRow);
    },
    async endUserSession(userId, id) {
      return hashes(await db.read(() => all(sql.endOne, { userId, id })))[0];
    },
    async endOtherSessions(userId, keepTokenHash) {
      return hashes(await db.read(() => all(sql.endOthers, { userId, keep: keepTokenHash })));
    },
  };
}

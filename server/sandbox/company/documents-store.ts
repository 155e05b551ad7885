/**
 * Invoice documents in SQLite. A document is created with its single-use upload token and waits for its file; the
 * bytes are stored in the row (BLOB) when the upload arrives.
 */
import type Database from 'better-sqlite3';
import type { EmulatorDocumentItem } from '../../provider/schemas';

type Row = {
  id: string;
  owner: string;
  owner_type: string;
  type: string;
  name: string;
  file_name: string;
  created_at: string;
  upload_token: string;
  expires_at: string;
  uploaded_at: string | null;
  content_type: string | null;
  size: number | null;
};

export interface NewDocument {
  id: string;
  owner: string;
  ownerType: string;
  type: string;
  name: string;
  fileName: string;
  createdAt: string;
  token: string;
  expiresAt: string;
}

/** Everything but the bytes; `content` is read only by the admin download. */
const COLUMNS = 'id, owner, owner_type, type, name, file_name, created_at, upload_token, expires_at, uploaded_at, content_type, size';

export function createDocumentStore(db: Database.Database) {
  const q = {
    insert: db.prepare(
      `INSERT INTO documents (id, owner, owner_type, type, name, file_name, created_at, upload_token, expires_at)
       VALUES (@id, @owner, @ownerType, @type, @name, @fileName, @createdAt, @token, @expiresAt)`,
    ),
    byId: db.prepare(`SELECT ${COLUMNS} FROM documents WHERE id = ?`),
    byToken: db.prepare(`SELECT ${COLUMNS} FROM documents WHERE upload_token = ?`),
    byOwner: db.prepare(`SELECT ${COLUMNS} FROM documents WHERE owner = ? AND owner_type = ? AND type = ? ORDER BY created_at, rowid`),
    all: db.prepare(`SELECT ${COLUMNS} FROM documents ORDER BY created_at, rowid`),
    // The `uploaded_at IS NULL` guard makes the address single-use even when two uploads race.
    upload: db.prepare(
      `UPDATE documents SET uploaded_at = @at, content_type = @contentType, size = @size, content = @content
       WHERE upload_token = @token AND uploaded_at IS NULL`,
    ),
    content: db.prepare('SELECT content, content_type, file_name FROM documents WHERE id = ? AND uploaded_at IS NOT NULL'),
    remove: db.prepare('DELETE FROM documents WHERE id = ?'),
  };

  /** The listing's item; `status` says whether the file arrived, or whether its address expired unused. */
  const itemOf = (row: Row, now: Date): EmulatorDocumentItem => ({
    id: row.id,
    name: row.name,
    fileName: row.file_name,
    type: row.type,
    ownerType: row.owner_type,
    owner: row.owner,
    status: row.uploaded_at ? 'Uploaded' : row.expires_at <= now.toISOString() ? 'Expired' : 'AwaitingUpload',
    size: row.size,
    contentType: row.content_type,
    creationDate: row.created_at,
    uploadDate: row.uploaded_at,
  });

  return {
    insert: (d: NewDocument) => void q.insert.run(d),
    byToken: (token: string) => q.byToken.get(token) as Row | undefined,
    item: (id: string, now: Date) => {
      const row = q.byId.get(id) as Row | undefined;
      return row && itemOf(row, now);
    },
    itemOf,
    list: (owner: string, ownerType: string, type: string, now: Date) =>
      (q.byOwner.all(owner, ownerType, type) as Row[]).map((row) => itemOf(row, now)),
    all: (now: Date) => (q.all.all() as Row[]).map((row) => itemOf(row, now)),
    /** False when another upload already used the token. */
    upload: (token: string, at: string, contentType: string, content: Buffer) =>
      q.upload.run({ token, at, contentType, size: content.length, content }).changes === 1,
    content: (id: string) => q.content.get(id) as { content: Buffer; content_type: string; file_name: string } | undefined,
    remove: (id: string) => q.remove.run(id).changes === 1,
  };
}

export type DocumentStore = ReturnType<typeof createDocumentStore>;

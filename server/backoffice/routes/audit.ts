/**
 * The audit trail, `/audit`: who did what, when, from where and how it ended, newest first, a page at a time
 * (`?after=<seq>` gives the entries older than that one; `next` is the cursor of the following page, null on the last),
 * filtered by `actor`, `action` (itself and the actions under it: `user` matches `user.add`), `outcome` and a period
 * (`from` inclusive, `to` exclusive). Every role may read it. `GET /audit/export.csv` writes the same filters as a CSV
 * file (./csv.ts: pt-BR by default, `?format=csv-iso` for machines), read from the store a page at a time as the client
 * takes it. Append-only: there is no route that changes or deletes an entry, and the store has no way to.
 */
import { Hono } from 'hono';
import { z } from 'zod';
import type { Clock } from '../../lib/clock';
import { AUDIT_OUTCOMES, type AuditEntry, type AuditQuery, type AuditStore } from '../../store/accounts';
import { parseQuery } from '../../http/json-body';
import { invalidCursor, invalidRequest } from '../../payments/errors';
import type { BackOfficeEnv } from '../actor';
import { csvFormatQuery, csvHeaders, csvStream, type CsvColumn } from '../csv';
import { filterInstant } from '../queries';
import { AUDIT_OUTCOME_LABELS, ROLE_LABELS, type AuditPage } from '../../../core/backoffice';

/** Entries the export reads from the store at a time. */
export const AUDIT_EXPORT_PAGE_SIZE = 500;

const filterQuery = z.object({
  after: z.string().max(20).optional(),
  actor: z.string().trim().toLowerCase().min(1).max(320).optional(),
  action: z
    .string()
    .max(100)
    .regex(/^[a-z0-9_.-]+$/i, 'Letters, digits and . _ -')
    .optional(),
  outcome: z.enum(AUDIT_OUTCOMES).optional(),
  from: filterInstant.optional(),
  to: filterInstant.optional(),
});
const listQuery = filterQuery.extend({ limit: z.coerce.number().int().min(1).max(200).default(50) });

/** The store's query of the filters; a bad cursor is a 400 `invalid_cursor`, a period ending before it starts a 400. */
function queryOf(q: z.output<typeof filterQuery>, limit: number): AuditQuery {
  if (q.after !== undefined && !/^[1-9]\d{0,14}$/.test(q.after)) throw invalidCursor();
  if (q.from && q.to && Date.parse(q.to) <= Date.parse(q.from)) {
    throw invalidRequest('Query: to must be after from.', [{ path: 'to', message: 'Must be after from' }]);
  }
  return {
    limit,
    ...(q.after !== undefined ? { before: Number(q.after) } : {}),
    ...(q.actor ? { actor: q.actor } : {}),
    ...(q.action ? { action: q.action } : {}),
    ...(q.outcome ? { outcome: q.outcome } : {}),
    ...(q.from ? { from: q.from } : {}),
    ...(q.to ? { to: q.to } : {}),
  };
}

const AUDIT_COLUMNS: readonly CsvColumn<AuditEntry>[] = [
  { pt: 'Nº', iso: 'seq', value: (e) => ({ text: String(e.seq) }) },
  { pt: 'Data e hora', iso: 'at', value: (e) => ({ instant: e.at }) },
  { pt: 'Quem', iso: 'actor', value: (e) => ({ text: e.actor }) },
  { pt: 'Papel', iso: 'role', value: (e, f) => ({ text: e.role && (f === 'csv' ? ROLE_LABELS[e.role] : e.role) }) },
  { pt: 'Endereço IP', iso: 'ip', value: (e) => ({ text: e.ip }) },
  { pt: 'Ação', iso: 'action', value: (e) => ({ text: e.action }) },
  { pt: 'Alvo', iso: 'target', value: (e) => ({ text: e.target }) },
  { pt: 'Resultado', iso: 'outcome', value: (e, f) => ({ text: f === 'csv' ? AUDIT_OUTCOME_LABELS[e.outcome] : e.outcome }) },
  { pt: 'Detalhes', iso: 'details', value: (e) => ({ text: Object.keys(e.details).length ? JSON.stringify(e.details) : null }) },
];

export function auditRoutes({ store, clock }: { store: AuditStore; clock: Clock }) {
  return new Hono<BackOfficeEnv>()
    .get('/audit', async (c) => {
      const q = parseQuery(c, listQuery);
      const query = queryOf(q, q.limit + 1);
      const entries = await store.listAudit(query);
      const data = entries.slice(0, q.limit);
      return c.json({ data, next: entries.length > q.limit ? data[data.length - 1]!.seq : null } satisfies AuditPage);
    })
    .get('/audit/export.csv', async (c) => {
      const q = parseQuery(c, filterQuery);
      const { format } = parseQuery(c, csvFormatQuery);
      let query = queryOf(q, AUDIT_EXPORT_PAGE_SIZE);
      const nextPage = async () => {
        const rows = await store.listAudit(query);
        if (rows.length > 0) query = { ...query, before: rows[rows.length - 1]!.seq };
        return { rows, done: rows.length < AUDIT_EXPORT_PAGE_SIZE };
      };
      return new Response(csvStream(AUDIT_COLUMNS, format, nextPage), { headers: csvHeaders(format, 'auditoria', clock.now()) });
    });
}

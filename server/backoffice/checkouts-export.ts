/**
 * `GET /checkouts/export.csv`: the payments received under the list's filters as a CSV file, streamed in batches as
 * the client reads it (never held whole in memory), up to `MAX_EXPORT_ROWS`; cells a spreadsheet would run as a
 * formula are defused.
 */
import { Hono } from 'hono';
import type { Clock } from '../lib/clock';
import type { Checkout, Store } from '../store/types';
import { parseQuery } from '../bff/validate';
import { filterOf, filterQuery } from './checkout-filter';
import type { AdminCheckoutView } from './checkouts';

/** Rows the CSV export reads from the store at a time. */
const EXPORT_BATCH = 200;
/** The export stops after this many rows (a month of a busy shop); narrow the filters for more. */
export const MAX_EXPORT_ROWS = 100_000;

const CSV_COLUMNS = [
  'id',
  'orderId',
  'method',
  'state',
  'amount',
  'currency',
  'createdAt',
  'expiresAt',
  'paidAt',
  'transactionId',
  'duplicateOf',
  'late',
  'refundState',
  'refundTransactionId',
  'description',
] as const;

/** RFC 4180 quoting; a cell a spreadsheet would run as a formula (`=`, `+`, `-`, `@`, tab, CR) is prefixed with `'`. */
export function csvCell(value: string | number | boolean | null | undefined): string {
  let cell = value === null || value === undefined ? '' : String(value);
  if (/^[=+\-@\t\r]/.test(cell)) cell = `'${cell}`;
  return /[",\r\n]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell;
}

function csvRow(v: AdminCheckoutView): string {
  const cells: Record<(typeof CSV_COLUMNS)[number], string | boolean | null> = {
    id: v.id,
    orderId: v.orderId,
    method: v.method,
    state: v.state,
    amount: v.amount,
    currency: 'BRL',
    createdAt: v.createdAt,
    expiresAt: v.expiresAt,
    paidAt: v.paidAt,
    transactionId: v.transactionId,
    duplicateOf: v.duplicateOf,
    late: v.late,
    refundState: v.refund?.state ?? null,
    refundTransactionId: v.refund?.transactionId ?? null,
    description: v.description,
  };
  return `${CSV_COLUMNS.map((name) => csvCell(cells[name])).join(',')}\r\n`;
}

export interface ExportRoutesOptions {
  store: Store;
  clock: Clock;
  /** The rows' views with their refunds, as the list shows them. */
  withRefunds: (checkouts: Checkout[]) => Promise<AdminCheckoutView[]>;
}

export function checkoutExportRoutes({ store, clock, withRefunds }: ExportRoutesOptions) {
  return new Hono().get('/checkouts/export.csv', (c) => {
    const filter = filterOf(parseQuery(c, filterQuery));
    let after: { createdAt: string; id: string } | undefined;
    let sent = 0;
    const encoder = new TextEncoder();
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        // The BOM lets spreadsheets read the accents; then the header row.
        controller.enqueue(encoder.encode(`\uFEFF${CSV_COLUMNS.join(',')}\r\n`));
      },
      // One batch per pull: the response is written as the client reads it, never held whole in memory.
      async pull(controller) {
        const batch = await store.listCheckouts({ ...filter, ...(after ? { after } : {}) }, EXPORT_BATCH);
        if (batch.length > 0) {
          controller.enqueue(encoder.encode((await withRefunds(batch)).map(csvRow).join('')));
          sent += batch.length;
          after = { createdAt: batch.at(-1)!.createdAt, id: batch.at(-1)!.id };
        }
        if (batch.length < EXPORT_BATCH || sent >= MAX_EXPORT_ROWS) controller.close();
      },
    });
    const day = clock.now().toISOString().slice(0, 10);
    return new Response(body, {
      headers: {
        'content-type': 'text/csv; charset=utf-8',
        'content-disposition': `attachment; filename="pagamentos-${day}.csv"`,
        'cache-control': 'no-store',
        'x-content-type-options': 'nosniff',
      },
    });
  });
}

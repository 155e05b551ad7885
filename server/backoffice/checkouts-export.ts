/**
 * `GET /checkouts/export.csv`: every payment received under the list's filters as a CSV file, however many. The store
 * is read a page at a time by the list's cursor and each page is written as the client reads it, so memory stays flat
 * whatever the file's length; cells a spreadsheet would run as a formula are defused.
 */
import { Hono } from 'hono';
import type { Clock } from '../lib/clock';
import type { Checkout, Store } from '../store/types';
import { parseQuery } from '../bff/validate';
import { filterOf, filterQuery } from './checkout-filter';
import type { AdminCheckoutView } from './checkouts';

/** Rows the CSV export reads from the store at a time. */
export const EXPORT_PAGE_SIZE = 200;

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
  /** Rows read from the store at a time (`EXPORT_PAGE_SIZE`; tests use a small one). */
  pageSize?: number;
}

export function checkoutExportRoutes({ store, clock, withRefunds, pageSize = EXPORT_PAGE_SIZE }: ExportRoutesOptions) {
  if (!Number.isSafeInteger(pageSize) || pageSize < 1) throw new Error('pageSize must be a positive integer');
  return new Hono().get('/checkouts/export.csv', (c) => {
    const filter = filterOf(parseQuery(c, filterQuery));
    let after: { createdAt: string; id: string } | undefined;
    const encoder = new TextEncoder();
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        // The BOM lets spreadsheets read the accents; then the header row.
        controller.enqueue(encoder.encode(`\uFEFF${CSV_COLUMNS.join(',')}\r\n`));
      },
      // One page per pull, after the last row written (the list's cursor), until a page comes back short: every row
      // once, in the list's order, written as the client reads it and never held whole in memory.
      async pull(controller) {
        const page = await store.listCheckouts({ ...filter, ...(after ? { after } : {}) }, pageSize);
        if (page.length > 0) {
          controller.enqueue(encoder.encode((await withRefunds(page)).map(csvRow).join('')));
          after = { createdAt: page.at(-1)!.createdAt, id: page.at(-1)!.id };
        }
        if (page.length < pageSize) controller.close();
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

/**
 * `GET /checkouts/export.csv`: every payment received under the list's filters as a CSV file, however many, in the
 * format `?format=` asks (csv.ts): `csv`, the default, opens as columns in a pt-BR spreadsheet (Portuguese headers and
 * states, `;`, decimal comma, São Paulo time); `csv-iso` is the machine format (English names, ISO values). Each row
 * has the provider's fee and the net amount (empty when the provider gave no charges) and what was refunded. The
 * store is read a page at a time by the list's cursor and each page is written as the client reads it, so memory
 * stays flat whatever the file's length.
 */
import { Hono } from 'hono';
import { METHOD_LABELS } from '../../../core/method-labels';
import type { Clock } from '../../lib/clock';
import type { BackOfficeStore } from '../../store/back-office';
import type { Checkout } from '../../store/types';
import { parseQuery } from '../../http/json-body';
import { filterOf, filterQuery } from '../checkout-filter';
import { csvFormatQuery, csvHeaders, csvStream, type CsvColumn, type CsvFormat } from '../csv';
import { CHECKOUT_STATE_LABELS, labelOf, REFUND_STATE_LABELS, type AdminCheckoutView } from '../../../core/backoffice';

/** Rows the CSV export reads from the store at a time. */
export const EXPORT_PAGE_SIZE = 250;

/**
 * The code in csv-iso, and in the pt-BR file the word the console shows: core/backoffice/labels.ts's for a state,
 * core/method-labels.ts's for a method ("Pix", "Open Finance").
 */
const label = <K extends string>(table: Readonly<Record<K, string>>, code: string | null, format: CsvFormat) => ({
  text: code === null || format === 'csv-iso' ? code : labelOf(table, code),
});

/** The columns, in the order of both files: the pt-BR header, the csv-iso name and the cell. */
export const EXPORT_COLUMNS: readonly CsvColumn<AdminCheckoutView>[] = [
  { pt: 'ID', iso: 'id', value: (v) => ({ text: v.id }) },
  { pt: 'Pedido', iso: 'orderId', value: (v) => ({ text: v.orderId }) },
  { pt: 'Método', iso: 'method', value: (v, f) => label(METHOD_LABELS, v.method, f) },
  { pt: 'Situação', iso: 'state', value: (v, f) => label(CHECKOUT_STATE_LABELS, v.state, f) },
  { pt: 'Valor', iso: 'amount', value: (v) => ({ money: v.amount }) },
  { pt: 'Tarifa', iso: 'fee', value: (v) => ({ money: v.fee }) },
  { pt: 'Valor líquido', iso: 'net', value: (v) => ({ money: v.net }) },
  { pt: 'Reembolsado', iso: 'refunded', value: (v) => ({ money: v.refunded }) },
  { pt: 'Moeda', iso: 'currency', value: () => ({ text: 'BRL' }) },
  { pt: 'Criado em', iso: 'createdAt', value: (v) => ({ instant: v.createdAt }) },
  { pt: 'Expira em', iso: 'expiresAt', value: (v) => ({ instant: v.expiresAt }) },
  { pt: 'Pago em', iso: 'paidAt', value: (v) => ({ instant: v.paidAt }) },
  { pt: 'ID da transação', iso: 'transactionId', value: (v) => ({ text: v.transactionId }) },
  { pt: 'Duplicata de', iso: 'duplicateOf', value: (v) => ({ text: v.duplicateOf }) },
  { pt: 'Pago após o prazo', iso: 'late', value: (v) => ({ bool: v.late }) },
  { pt: 'Situação do reembolso', iso: 'refundState', value: (v, f) => label(REFUND_STATE_LABELS, v.refund?.state ?? null, f) },
  { pt: 'ID da transação do reembolso', iso: 'refundTransactionId', value: (v) => ({ text: v.refund?.transactionId ?? null }) },
  { pt: 'Descrição', iso: 'description', value: (v) => ({ text: v.description }) },
];

export interface ExportRoutesOptions {
  store: Pick<BackOfficeStore, 'listCheckouts'>;
  clock: Clock;
  /** The rows' views with their refunds, as the list shows them. */
  withRefunds: (checkouts: Checkout[]) => Promise<AdminCheckoutView[]>;
  /** Rows read from the store at a time (`EXPORT_PAGE_SIZE`; tests use a small one). */
  pageSize?: number;
}

/** The export's route; a bad filter or format is a 400 before anything is written. */
export function checkoutExportRoutes({ store, clock, withRefunds, pageSize = EXPORT_PAGE_SIZE }: ExportRoutesOptions) {
  if (!Number.isSafeInteger(pageSize) || pageSize < 1) throw new Error('pageSize must be a positive integer');
  return new Hono().get('/checkouts/export.csv', (c) => {
    const filter = filterOf(parseQuery(c, filterQuery));
    const { format } = parseQuery(c, csvFormatQuery);
    // One page per pull, after the last row of the page before (the list's cursor), until a page comes back short:
    // every row once, in the list's order, written as the client reads it and never held whole in memory. While a
    // page is written the next one (one, never more) is already being read, its refunds asked for as soon as its
    // rows arrive.
    const read = async (after?: { createdAt: string; id: string }) => {
      const page = await store.listCheckouts({ ...filter, ...(after ? { after } : {}) }, pageSize);
      const views = page.length > 0 ? withRefunds(page) : Promise.resolve([]);
      // Views of a page read ahead that nobody pulls (the client left) must not be an unhandled rejection.
      views.catch(() => undefined);
      return { page, views };
    };
    let coming: ReturnType<typeof read> | undefined = read();
    const body = csvStream(EXPORT_COLUMNS, format, async () => {
      const { page, views } = await coming!;
      const last = page.at(-1);
      coming = page.length === pageSize && last ? read({ createdAt: last.createdAt, id: last.id }) : undefined;
      coming?.catch(() => undefined);
      return { rows: await views, done: coming === undefined };
    });
    return new Response(body, { headers: csvHeaders(format, 'pagamentos', clock.now()) });
  });
}

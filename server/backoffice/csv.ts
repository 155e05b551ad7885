/**
 * The back office's CSV writer, in the two formats every export offers (`?format=`):
 *
 * - `csv` (the default) is what a Brazilian spreadsheet opens as columns: `;` between cells, a decimal comma with no
 *   thousands separator (`1234,56`), instants as São Paulo local time `dd/mm/aaaa hh:mm:ss`, `sim`/`não`, Portuguese
 *   headers, UTF-8 with a BOM (so Excel reads the accents), CRLF line ends.
 * - `csv-iso` is for machines (RFC 4180): `,`, a decimal point, ISO 8601 UTC instants, `true`/`false`, English
 *   camelCase headers, no BOM, CRLF.
 *
 * Both quote a cell holding `"`, `,`, `;`, CR or LF (either separator, so a reader that guesses the separator splits
 * neither), and defuse formula injection: a text cell starting with `=`, `+`, `-`, `@`, tab or CR gets a leading `'`.
 * The numbers we write ourselves are never defused, so a negative amount stays a number. Money is exact: decimal
 * strings through core/money.ts, never a binary float.
 */
import { z } from 'zod';
import { CSV_FORMATS, type CsvFormat } from '../../core/backoffice';
import { formatDecimal, parseDecimal } from '../../core/money';
import { saoPauloDateTime, saoPauloParts } from './sao-paulo-time';

/** `csv`: pt-BR for spreadsheets (the default); `csv-iso`: RFC 4180 with ISO values, for machines (core/backoffice). */
export type { CsvFormat };

/** `?format=` of an export: `csv` when absent; another value is a 400 through `parseQuery`. */
export const csvFormatQuery = z.object({ format: z.enum(CSV_FORMATS).default('csv') });

/**
 * A cell's value, tagged with what it is so each format writes it its own way; null is an empty cell.
 * `money` is a decimal string of any scale ("12.34", "-0.990000"); `instant` an ISO 8601 instant.
 */
export type CsvValue = { text: string | null } | { money: string | null } | { instant: string | null } | { bool: boolean | null };

/** One column of an export: its header in each format and its cell of a row. */
export interface CsvColumn<T> {
  /** The header of the pt-BR file ("Valor líquido"). */
  pt: string;
  /** The header of the csv-iso file, English camelCase ("net"). */
  iso: string;
  /** The cell of `row`; `format` is for the few cells whose words differ by format (a state: `Pago` or `Completed`). */
  value: (row: T, format: CsvFormat) => CsvValue;
}

/** A decimal string as an exact count of units at its own scale (at least cents); undefined when it is no number. */
function exactDecimal(text: string): { units: bigint; scale: number } | undefined {
  const match = /^-?\d+(?:\.(\d+))?$/.exec(text);
  if (!match) return undefined;
  const scale = Math.max(2, match[1]?.length ?? 0);
  const units = parseDecimal(text, scale, { signed: true });
  return units === undefined ? undefined : { units, scale };
}

/** The pt-BR amount: cents when exact at cents ("0,99"), else every significant digit ("0,012345"); never rounded. */
function brazilianMoney({ units, scale }: { units: bigint; scale: number }): string {
  while (scale > 2 && units % 10n === 0n) {
    units /= 10n;
    scale--;
  }
  return formatDecimal(units, scale).replace('.', ',');
}

/** A non-negative amount as we write them ("12.34", "0.990000": no sign, no leading zero, at least cents). */
const PLAIN_MONEY = /^(?:0|[1-9]\d*)\.\d\d+$/;

/**
 * Such an amount written without the exact path's bigint round trip (every row of an export has several): as it
 * is in csv-iso, its fraction's trailing zeros past the cents dropped and a comma in pt-BR, which is what the exact
 * path writes for it. Undefined for any other text, which takes the exact path.
 */
function plainMoney(text: string, iso: boolean): string | undefined {
  if (!PLAIN_MONEY.test(text)) return undefined;
  if (iso) return text;
  const dot = text.indexOf('.');
  let end = text.length;
  // '0' (48): trailing zeros past the cents.
  while (end > dot + 3 && text.charCodeAt(end - 1) === 48) end--;
  return `${text.slice(0, dot)},${text.slice(dot + 1, end)}`;
}

/** A text cell: defused if a spreadsheet would run it as a formula, then quoted if it needs to be. */
function textCell(text: string): string {
  const cell = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return /[",;\r\n]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell;
}

/**
 * One cell as `format` writes it. Money and instants that are not what they claim (corrupt data) are written as the
 * text they are, defused, rather than as a made-up number or a broken file.
 */
export function csvCell(value: CsvValue, format: CsvFormat): string {
  const iso = format === 'csv-iso';
  if ('text' in value) return value.text === null ? '' : textCell(value.text);
  if ('bool' in value) return value.bool === null ? '' : iso ? String(value.bool) : value.bool ? 'sim' : 'não';
  if ('money' in value) {
    if (value.money === null) return '';
    const plain = plainMoney(value.money, iso);
    if (plain !== undefined) return plain;
    const decimal = exactDecimal(value.money);
    if (!decimal) return textCell(value.money);
    return iso ? formatDecimal(decimal.units, decimal.scale) : brazilianMoney(decimal);
  }
  if (value.instant === null) return '';
  // Its milliseconds, not a Date: three instants a row, a million rows.
  const ms = Date.parse(value.instant);
  if (Number.isNaN(ms)) return textCell(value.instant);
  return iso ? new Date(ms).toISOString() : saoPauloDateTime(ms);
}

const separatorOf = (format: CsvFormat) => (format === 'csv-iso' ? ',' : ';');

/** The header line, CRLF-terminated; the pt-BR file's starts with the BOM, so it is the first thing written. */
export function csvHeader<T>(columns: readonly CsvColumn<T>[], format: CsvFormat): string {
  const names = columns.map((column) => textCell(format === 'csv-iso' ? column.iso : column.pt));
  return `${format === 'csv-iso' ? '' : '\uFEFF'}${names.join(separatorOf(format))}\r\n`;
}

/** The line of one row, CRLF-terminated. */
export function csvLine<T>(columns: readonly CsvColumn<T>[], row: T, format: CsvFormat): string {
  return `${columns.map((column) => csvCell(column.value(row, format), format)).join(separatorOf(format))}\r\n`;
}

/**
 * The response headers of an export named `<fileBaseName>-<day>.csv`, the day `now` is in São Paulo (pt-BR) or UTC
 * (csv-iso); never cached, never sniffed.
 */
export function csvHeaders(format: CsvFormat, fileBaseName: string, now: Date): Record<string, string> {
  const p = saoPauloParts(now);
  const day = format === 'csv-iso' ? now.toISOString().slice(0, 10) : `${p.year}-${p.month}-${p.day}`;
  return {
    'content-type': 'text/csv; charset=utf-8',
    'content-disposition': `attachment; filename="${fileBaseName}-${day}.csv"`,
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
  };
}

/** A page of rows to write, and whether it was the last. */
export interface CsvPage<T> {
  rows: readonly T[];
  done: boolean;
}

/** Rows written between two turns of the event loop: a slice takes a few tenths of a millisecond. */
const ROWS_PER_SLICE = 32;

/**
 * Bytes of one buffer the lines are written into, sent a slice at a time as views of it: a new buffer only when one
 * is full, so a long export makes no string of a slice or a page, and a few dozen buffers per megabyte of file.
 */
const CHUNK_BYTES = 64 * 1024;

/** Lets the event loop take what arrived meanwhile (a shopper's request) before going on. */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * The file as a stream: the header, then one page per pull, as the client reads it, until a page says it is the
 * last; memory stays at one page whatever the file's length. A page is written a slice at a time, the event loop
 * free between slices, so a long export never holds the server's other requests for longer than a slice. The
 * stream pulls the next page only once the client has taken what was written (the response's backpressure), so
 * the server never reads ahead of a slow client.
 */
export function csvStream<T>(
  columns: readonly CsvColumn<T>[],
  format: CsvFormat,
  nextPage: () => Promise<CsvPage<T>>,
): ReadableStream<Uint8Array> {
  const separator = separatorOf(format);
  let chunk = Buffer.allocUnsafe(CHUNK_BYTES);
  /** Bytes of `chunk` written, and where the part not yet sent starts. */
  let used = 0;
  let sent = 0;
  /** The cells of the row being written: one array for the whole file. */
  const cells: string[] = new Array<string>(columns.length);
  const send = (controller: ReadableStreamDefaultController<Uint8Array>) => {
    if (used > sent) controller.enqueue(chunk.subarray(sent, used));
    sent = used;
  };
  const write = (controller: ReadableStreamDefaultController<Uint8Array>, row: T) => {
    // At most 3 bytes per UTF-16 unit, and a separator or CRLF after each cell.
    let bound = 2 + columns.length;
    for (let i = 0; i < columns.length; i++) bound += 3 * (cells[i] = csvCell(columns[i]!.value(row, format), format)).length;
    if (bound > chunk.length - used) {
      // The buffer's views already sent stay the client's: the rest goes into a new one.
      send(controller);
      chunk = Buffer.allocUnsafe(Math.max(CHUNK_BYTES, bound));
      used = sent = 0;
    }
    // One write of the whole line: a write per cell and separator costs more than the line's string.
    used += chunk.write(`${cells.join(separator)}\r\n`, used, 'utf8');
  };
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode(csvHeader(columns, format)));
    },
    async pull(controller) {
      const { rows, done } = await nextPage();
      for (let i = 0; i < rows.length; i++) {
        if (i > 0 && i % ROWS_PER_SLICE === 0) {
          send(controller);
          await turn();
        }
        write(controller, rows[i]!);
      }
      send(controller);
      if (done) controller.close();
    },
  });
}

/**
 * The back office's CSV writer (server/backoffice/csv.ts) in both formats, read back as a spreadsheet would: the pt-BR
 * file (`;`, decimal comma, São Paulo time, sim/não, BOM) and the csv-iso one (`,`, ISO values, no BOM); quoting,
 * formula defusing of text but never of our numbers, and the `?format=` query.
 */
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../server/payments/errors';
import { errorBody } from '../../../server/http/error-envelope';
import { parseQuery } from '../../../server/http/json-body';
import {
  csvCell,
  csvFormatQuery,
  csvHeader,
  csvHeaders,
  csvLine,
  csvStream,
  type CsvColumn,
  type CsvFormat,
} from '../../../server/backoffice/csv';
import { brazilianMicros, csvRecords, parseCsv, pointMicros, saoPauloTime } from '../helpers/csv';

interface Row {
  id: string;
  note: string | null;
  amount: string | null;
  at: string | null;
  paid: boolean | null;
}

const COLUMNS: CsvColumn<Row>[] = [
  { pt: 'Código', iso: 'id', value: (r) => ({ text: r.id }) },
  { pt: 'Observação', iso: 'note', value: (r) => ({ text: r.note }) },
  { pt: 'Valor líquido', iso: 'net', value: (r) => ({ money: r.amount }) },
  { pt: 'Criado em', iso: 'createdAt', value: (r) => ({ instant: r.at }) },
  { pt: 'Pago', iso: 'paid', value: (r) => ({ bool: r.paid }) },
];

const ROWS: Row[] = [
  { id: 'a', note: 'Café; "moído"\r\nsegunda linha, com vírgula', amount: '1234.56', at: '2026-01-15T03:30:00.000Z', paid: true },
  { id: 'b', note: '=HYPERLINK("http://evil.example")', amount: '-0.099500', at: '2026-07-01T00:00:00Z', paid: false },
  { id: '-1+1', note: '+55 11 99999-9999', amount: '0.990000', at: '2025-12-31T23:59:59.999Z', paid: null },
  { id: '@sum', note: '\tTAB', amount: null, at: null, paid: true },
  { id: 'e', note: null, amount: '12345678901234567890.123456', at: '2026-03-01T12:00:00-03:00', paid: false },
];

function file(format: CsvFormat, rows = ROWS): string {
  return csvHeader(COLUMNS, format) + rows.map((row) => csvLine(COLUMNS, row, format)).join('');
}

describe('the pt-BR file (csv, the default)', () => {
  const text = file('csv');

  it('starts with a BOM, separates with ; and ends lines in CRLF', () => {
    expect(text.charCodeAt(0)).toBe(0xfeff);
    expect(Buffer.from(text, 'utf8').subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    const rows = parseCsv(text.slice(1), ';');
    expect(rows[0]).toEqual(['Código', 'Observação', 'Valor líquido', 'Criado em', 'Pago']);
    expect(rows).toHaveLength(ROWS.length + 1);
  });

  it('writes amounts with a decimal comma, exact, as a spreadsheet reads numbers', () => {
    const records = csvRecords(parseCsv(text.slice(1), ';'));
    expect(records.map((r) => r['Valor líquido'])).toEqual(['1234,56', '-0,0995', '0,99', '', '12345678901234567890,123456']);
    expect(brazilianMicros(records[0]!['Valor líquido']!)).toBe(1_234_560_000n);
    expect(brazilianMicros(records[1]!['Valor líquido']!)).toBe(-99_500n);
  });

  it('writes instants as São Paulo time, dd/mm/aaaa hh:mm:ss', () => {
    const records = csvRecords(parseCsv(text.slice(1), ';'));
    expect(records[0]!['Criado em']).toBe('15/01/2026 00:30:00');
    expect(records[2]!['Criado em']).toBe('31/12/2025 20:59:59');
    expect(records[4]!['Criado em']).toBe('01/03/2026 12:00:00');
    for (const [index, row] of ROWS.entries()) expect(records[index]!['Criado em']).toBe(row.at ? saoPauloTime(row.at) : '');
  });

  it('writes booleans as sim/não and null as an empty cell', () => {
    const records = csvRecords(parseCsv(text.slice(1), ';'));
    expect(records.map((r) => r['Pago'])).toEqual(['sim', 'não', '', 'sim', 'não']);
    expect(records[4]!['Observação']).toBe('');
  });

  it('keeps a text with the separator, quotes and line breaks in its cell', () => {
    const records = csvRecords(parseCsv(text.slice(1), ';'));
    expect(records[0]!['Observação']).toBe(ROWS[0]!.note);
  });

  it('defuses text a spreadsheet would run as a formula, but never a number of ours', () => {
    const records = csvRecords(parseCsv(text.slice(1), ';'));
    expect(records[1]!['Observação']).toBe(`'${ROWS[1]!.note}`);
    expect(records[2]!['Código']).toBe("'-1+1");
    expect(records[2]!['Observação']).toBe("'+55 11 99999-9999");
    expect(records[3]!['Código']).toBe("'@sum");
    expect(records[3]!['Observação']).toBe("'\tTAB");
    // The negative amount is a number, not text.
    expect(records[1]!['Valor líquido']).toBe('-0,0995');
  });
});

describe('the csv-iso file', () => {
  const text = file('csv-iso');

  it('has no BOM, English headers and , as separator', () => {
    expect(text.charCodeAt(0)).not.toBe(0xfeff);
    const rows = parseCsv(text, ',');
    expect(rows[0]).toEqual(['id', 'note', 'net', 'createdAt', 'paid']);
  });

  it('round-trips every value: decimal point, ISO UTC instants, true/false', () => {
    const records = csvRecords(parseCsv(text, ','));
    for (const [index, row] of ROWS.entries()) {
      const record = records[index]!;
      expect(record['net'] === '' ? null : pointMicros(record['net']!)).toBe(row.amount === null ? null : pointMicros(row.amount));
      expect(record['createdAt'] === '' ? null : Date.parse(record['createdAt']!)).toBe(row.at === null ? null : Date.parse(row.at));
      if (record['createdAt']) expect(record['createdAt']).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(record['paid']).toBe(row.paid === null ? '' : String(row.paid));
    }
    expect(records[0]!['note']).toBe(ROWS[0]!.note);
    expect(records[1]!['note']).toBe(`'${ROWS[1]!.note}`);
    expect(records[1]!['net']).toBe('-0.099500');
    expect(records[2]!['net']).toBe('0.990000');
  });
});

describe('cells', () => {
  it('quote only when needed', () => {
    expect(csvCell({ text: 'plain' }, 'csv')).toBe('plain');
    expect(csvCell({ text: 'a,b' }, 'csv-iso')).toBe('"a,b"');
    expect(csvCell({ text: 'a;b' }, 'csv')).toBe('"a;b"');
    expect(csvCell({ text: '=HYPERLINK("x")' }, 'csv-iso')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvCell({ text: '2× Café, moído' }, 'csv-iso')).toBe('"2× Café, moído"');
  });

  it('write money and instants that are not what they claim as defused text, never as a number', () => {
    expect(csvCell({ money: '12,5' }, 'csv')).toBe('"12,5"');
    expect(csvCell({ money: '-x' }, 'csv-iso')).toBe("'-x");
    expect(csvCell({ instant: 'yesterday' }, 'csv')).toBe('yesterday');
  });

  it('pad a whole amount to cents and keep every significant digit beyond', () => {
    expect(csvCell({ money: '7' }, 'csv')).toBe('7,00');
    expect(csvCell({ money: '7' }, 'csv-iso')).toBe('7.00');
    expect(csvCell({ money: '0.012300' }, 'csv')).toBe('0,0123');
    expect(csvCell({ money: '0.012300' }, 'csv-iso')).toBe('0.012300');
  });
});

describe('the response', () => {
  it('names a dated attachment: São Paulo day for pt-BR, UTC day for csv-iso', () => {
    // 01:00 UTC on the 16th is still the 15th in São Paulo.
    const now = new Date('2026-01-16T01:00:00Z');
    const pt = csvHeaders('csv', 'pagamentos', now);
    expect(pt['content-type']).toBe('text/csv; charset=utf-8');
    expect(pt['content-disposition']).toBe('attachment; filename="pagamentos-2026-01-15.csv"');
    expect(csvHeaders('csv-iso', 'pagamentos', now)['content-disposition']).toBe('attachment; filename="pagamentos-2026-01-16.csv"');
  });

  it('streams page after page until the last', async () => {
    const pages = [ROWS.slice(0, 2), ROWS.slice(2, 4), ROWS.slice(4)];
    let read = 0;
    const stream = csvStream(COLUMNS, 'csv-iso', async () => ({ rows: pages[read]!, done: ++read === pages.length }));
    expect(await new Response(stream).text()).toBe(file('csv-iso'));
    expect(read).toBe(3);
  });

  it('reads ?format=, csv by default, and refuses another value with 400 in the envelope', async () => {
    const app = new Hono()
      .get('/x', (c) => c.text(parseQuery(c, csvFormatQuery).format))
      .onError((error, c) =>
        error instanceof ApiError ? c.json(errorBody('Error', error.code, error.message), error.status) : c.text('boom', 500),
      );
    expect(await (await app.request('/x')).text()).toBe('csv');
    expect(await (await app.request('/x?format=csv-iso')).text()).toBe('csv-iso');
    const bad = await app.request('/x?format=xlsx');
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ statusCode: 'Error', error: { code: 'invalid_request' } });
  });
});

describe('csvCell money', () => {
  it('writes plain amounts as the exact path does, whatever their scale', () => {
    // The exact path's result, by way of a text the fast path does not take (a leading zero).
    const exact = (text: string, format: CsvFormat) => csvCell({ money: `0${text}` }, format);
    let seed = 7;
    const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0);
    const amounts = ['0.00', '0.01', '0.10', '1.00', '10.50', '0.990000', '0.012300', '12.340000', '100.000001', '7.000'];
    for (let i = 0; i < 2_000; i++) {
      const whole = next() % 3 === 0 ? '0' : String(next() % 1_000_000);
      const fraction = String(next() % 10 ** 7)
        .padStart(7, '0')
        .slice(0, 2 + (next() % 6));
      amounts.push(`${whole}.${fraction}`);
    }
    for (const amount of amounts) {
      for (const format of ['csv', 'csv-iso'] as const) {
        expect(csvCell({ money: amount }, format), `${amount} ${format}`).toBe(exact(amount, format));
      }
    }
  });
});

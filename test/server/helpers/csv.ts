/**
 * Reads a CSV file as a spreadsheet would, independently of the writer under test (server/backoffice/csv.ts): a
 * strict RFC 4180 reader with a configurable separator, and the pt-BR spreadsheet's reading of numbers and times.
 */

/**
 * The rows of `text`: lines end in CRLF (the last one too), cells are split on `separator`, and a cell in double quotes
 * may hold the separator, CR, LF and doubled quotes. Anything else (a bare line break, a stray quote, an unterminated
 * quote, rows of unequal length) throws, so a malformed file fails the test rather than parse by luck.
 */
export function parseCsv(text: string, separator: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  let wasQuoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch !== '"') cell += ch;
      else if (text[i + 1] === '"') {
        cell += '"';
        i++;
      } else {
        quoted = false;
        wasQuoted = true;
      }
    } else if (ch === '"' && cell === '' && !wasQuoted) quoted = true;
    else if (ch === separator) {
      row.push(cell);
      cell = '';
      wasQuoted = false;
    } else if (ch === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      wasQuoted = false;
      i++;
    } else if (ch === '"' || ch === '\r' || ch === '\n' || wasQuoted) {
      throw new Error(`Malformed CSV at character ${i}: ${JSON.stringify(text.slice(Math.max(0, i - 20), i + 20))}`);
    } else cell += ch;
  }
  if (quoted) throw new Error('Malformed CSV: an unterminated quote');
  if (cell !== '' || row.length > 0) throw new Error('Malformed CSV: the last line does not end in CRLF');
  for (const r of rows) if (r.length !== rows[0]!.length) throw new Error(`Malformed CSV: a row of ${r.length} cells`);
  return rows;
}

/** The rows as objects keyed by the header row's names. */
export function csvRecords(rows: string[][]): Record<string, string>[] {
  const [header, ...body] = rows;
  return body.map((cells) => Object.fromEntries(header!.map((name, index) => [name, cells[index]!])));
}

/**
 * A pt-BR spreadsheet's number as millionths ("1234,56" → 1_234_560_000n, "-0,0995" → -99_500n): digits, an optional
 * decimal comma, no thousands separator, at most six decimals. Throws on anything a spreadsheet would read as text.
 */
export function brazilianMicros(cell: string): bigint {
  const match = /^(-?)(\d+)(?:,(\d{1,6}))?$/.exec(cell);
  if (!match) throw new Error(`Not a pt-BR number: ${JSON.stringify(cell)}`);
  const micros = BigInt(match[2]!) * 1_000_000n + BigInt((match[3] ?? '').padEnd(6, '0'));
  return match[1] ? -micros : micros;
}

/** A decimal string with a point as millionths ("12.722144" → 12_722_144n); throws on anything else. */
export function pointMicros(cell: string): bigint {
  const match = /^(-?)(\d+)(?:\.(\d{1,6}))?$/.exec(cell);
  if (!match) throw new Error(`Not a decimal: ${JSON.stringify(cell)}`);
  const micros = BigInt(match[2]!) * 1_000_000n + BigInt((match[3] ?? '').padEnd(6, '0'));
  return match[1] ? -micros : micros;
}

/**
 * São Paulo's wall-clock time of an instant as `dd/mm/aaaa hh:mm:ss`, by arithmetic rather than Intl: Brazil has kept
 * UTC−3 all year since 2019 (no daylight saving), so this holds for any instant after that.
 */
export function saoPauloTime(iso: string): string {
  const local = new Date(Date.parse(iso) - 3 * 3_600_000);
  const two = (n: number) => String(n).padStart(2, '0');
  return (
    `${two(local.getUTCDate())}/${two(local.getUTCMonth() + 1)}/${local.getUTCFullYear()} ` +
    `${two(local.getUTCHours())}:${two(local.getUTCMinutes())}:${two(local.getUTCSeconds())}`
  );
}

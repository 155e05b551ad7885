/**
 * São Paulo's wall clock of the CSV files (server/backoffice/sao-paulo-time.ts), which keeps the zone's offset per
 * UTC hour instead of asking `Intl` for each instant: it must write every instant exactly as `Intl` does, across
 * Brazil's daylight-saving switches (until 2019), the zone's odd early offsets, and any hour of the year.
 */
import { describe, expect, it } from 'vitest';
import { saoPauloDateTime } from './sao-paulo-time';

const intl = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'America/Sao_Paulo',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});

/** What `Intl` alone writes for `ms`, in the file's `dd/mm/aaaa hh:mm:ss`. */
function byIntl(ms: number): string {
  const p = Object.fromEntries(intl.formatToParts(new Date(ms)).map((part) => [part.type, part.value]));
  return `${p.day}/${p.month}/${p.year} ${p.hour}:${p.minute}:${p.second}`;
}

describe('saoPauloDateTime', () => {
  it('writes each second around daylight-saving switches as Intl does', () => {
    // Clocks forward (2018-11-04 00:00 local) and back (2019-02-17 00:00 local, the last switch).
    for (const switchAt of [Date.parse('2018-11-04T03:00:00Z'), Date.parse('2019-02-17T02:00:00Z')]) {
      for (let ms = switchAt - 2 * 3_600_000; ms < switchAt + 2 * 3_600_000; ms += 7_000) {
        expect(saoPauloDateTime(new Date(ms)), new Date(ms).toISOString()).toBe(byIntl(ms));
        expect(saoPauloDateTime(ms), `${ms}`).toBe(byIntl(ms));
      }
    }
  });

  it('writes instants spread over a century and a half as Intl does', () => {
    let seed = 12345;
    const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0);
    const from = Date.parse('1900-01-01T00:00:00Z');
    const to = Date.parse('2050-01-01T00:00:00Z');
    for (let i = 0; i < 5_000; i++) {
      const ms = from + Math.floor(((next() / 2 ** 32) * (to - from)) / 1000) * 1000 + (next() % 1000);
      expect(saoPauloDateTime(new Date(ms)), new Date(ms).toISOString()).toBe(byIntl(ms));
      expect(saoPauloDateTime(ms), `${ms}`).toBe(byIntl(ms));
    }
  });

  it('writes years not of four digits, and the days around them, as Intl does', () => {
    for (const iso of ['0999-12-31T12:00:00Z', '1000-01-01T03:00:00Z', '1000-01-01T02:59:59Z', '9999-12-31T23:59:59Z']) {
      const ms = Date.parse(iso);
      expect(saoPauloDateTime(ms), iso).toBe(byIntl(ms));
    }
  });

  it('gives the same text for the same instant whether its hour was seen before or not', () => {
    const ms = Date.parse('2026-03-10T12:34:56.789Z');
    expect(saoPauloDateTime(new Date(ms))).toBe('10/03/2026 09:34:56');
    expect(saoPauloDateTime(new Date(ms))).toBe('10/03/2026 09:34:56');
  });
});

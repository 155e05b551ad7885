/**
 * São Paulo's wall clock for the CSV files (./csv.ts): an instant as `dd/mm/aaaa hh:mm:ss` there, and its parts.
 *
 * Asking `Intl` for every instant of an export costs more than everything else a row needs (a million rows have
 * three instants each), so the zone's offset is asked once per UTC hour and kept: the wall clock is then the instant
 * moved by that offset, read with the UTC getters. An hour in which the offset changes (a daylight-saving switch;
 * Brazil had them until 2019) is never cached: its instants go to `Intl` one by one, so every instant is written
 * exactly as `Intl` writes it.
 */
const TIME_ZONE = 'America/Sao_Paulo';
const HOUR = 3_600_000;

/** São Paulo's wall clock, by parts, from `Intl` itself. */
const saoPaulo = new Intl.DateTimeFormat('en-GB', {
  timeZone: TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});

export type WallClock = Record<'year' | 'month' | 'day' | 'hour' | 'minute' | 'second', string>;

function intlParts(date: Date): WallClock {
  const parts = Object.fromEntries(saoPaulo.formatToParts(date).map((p) => [p.type, p.value]));
  return { year: parts.year!, month: parts.month!, day: parts.day!, hour: parts.hour!, minute: parts.minute!, second: parts.second! };
}

/** The zone's offset at `ms` (whole seconds), from `Intl`'s wall clock of that instant. */
function intlOffset(ms: number): number {
  const p = intlParts(new Date(ms));
  const wall = Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour), Number(p.minute), Number(p.second));
  return wall - (ms - (((ms % 1000) + 1000) % 1000));
}

/** Offset of each UTC hour seen (null: it changes within the hour). Exports span months, so a few thousand hours. */
const offsets = new Map<number, number | null>();
const MAX_CACHED_HOURS = 100_000;

function offsetOfHour(hour: number): number | null {
  let offset = offsets.get(hour);
  if (offset === undefined) {
    const start = intlOffset(hour * HOUR);
    offset = start === intlOffset((hour + 1) * HOUR - 1000) ? start : null;
    if (offsets.size >= MAX_CACHED_HOURS) offsets.clear();
    offsets.set(hour, offset);
  }
  return offset;
}

const two = (n: number) => (n < 10 ? `0${n}` : String(n));

/** The wall clock in São Paulo at `date`, by parts, two digits each (four for the year). */
export function saoPauloParts(date: Date): WallClock {
  const ms = date.getTime();
  const offset = offsetOfHour(Math.floor(ms / HOUR));
  const wall = new Date(ms + offset!);
  // Years of other than four digits are written by `Intl` its own way (eras, no padding): left to it.
  if (offset === null || !(wall.getUTCFullYear() >= 1000 && wall.getUTCFullYear() <= 9999)) return intlParts(date);
  return {
    year: String(wall.getUTCFullYear()),
    month: two(wall.getUTCMonth() + 1),
    day: two(wall.getUTCDate()),
    hour: two(wall.getUTCHours()),
    minute: two(wall.getUTCMinutes()),
    second: two(wall.getUTCSeconds()),
  };
}

/** `00` to `99`: the two-digit fields of a wall clock, made once. */
const TWO = Array.from({ length: 100 }, (_, n) => two(n));
const DAY = 24 * HOUR;

/** `dd/mm/aaaa ` of each day seen, days since 1970 on the wall clock (null: a year not of four digits). */
const dayTexts = new Map<number, string | null>();

function dayText(day: number): string | null {
  let text = dayTexts.get(day);
  if (text === undefined) {
    const date = new Date(day * DAY);
    const year = date.getUTCFullYear();
    text = year >= 1000 && year <= 9999 ? `${TWO[date.getUTCDate()]}/${TWO[date.getUTCMonth() + 1]}/${year} ` : null;
    if (dayTexts.size >= MAX_CACHED_HOURS) dayTexts.clear();
    dayTexts.set(day, text);
  }
  return text;
}

/**
 * `dd/mm/aaaa hh:mm:ss` in São Paulo: the pt-BR file's instants, `date` a Date or its milliseconds. Every row of an
 * export has three, so it makes no Date and no parts: the day's text is kept, the time is read off the milliseconds.
 */
export function saoPauloDateTime(date: Date | number): string {
  const ms = typeof date === 'number' ? date : date.getTime();
  const offset = offsetOfHour(Math.floor(ms / HOUR));
  const wall = offset === null ? Number.NaN : ms + offset;
  const day = Math.floor(wall / DAY);
  const text = Number.isNaN(wall) ? null : dayText(day);
  if (text === null) {
    const p = intlParts(new Date(ms));
    return `${p.day}/${p.month}/${p.year} ${p.hour}:${p.minute}:${p.second}`;
  }
  const second = Math.floor((wall - day * DAY) / 1000);
  return `${text}${TWO[Math.floor(second / 3600)]}:${TWO[Math.floor(second / 60) % 60]}:${TWO[second % 60]}`;
}

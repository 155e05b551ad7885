/**
 * The element's date and time formatters, made once per locale and style. Making the first one loads the locale's
 * calendar data, which costs a phone tens of milliseconds (about 60 ms at 4× CPU throttling): the element makes them
 * while it waits for its first answer (`warmDateFormats`), so drawing the first QR's countdown does not pay for it.
 */
type Style = 'time' | 'dateTime';

const OPTIONS: Record<Style, Intl.DateTimeFormatOptions> = {
  time: { timeStyle: 'short' },
  dateTime: { dateStyle: 'short', timeStyle: 'short' },
};

const formats = new Map<string, Intl.DateTimeFormat>();

export function dateFormat(locale: string, style: Style): Intl.DateTimeFormat {
  const key = `${locale}|${style}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, OPTIONS[style]);
    formats.set(key, format);
  }
  return format;
}

/** Makes the formatters of `locale` in a later task, so they are ready by the time a checkout is drawn. */
export function warmDateFormats(locale: string): void {
  setTimeout(() => {
    dateFormat(locale, 'time');
    dateFormat(locale, 'dateTime');
  });
}

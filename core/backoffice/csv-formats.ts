/**
 * The two forms of every CSV export (`?format=`): `csv`, the default, for pt-BR spreadsheets (`;`, decimal comma,
 * São Paulo time, Portuguese headers and words); `csv-iso` for machines (RFC 4180, ISO values, English names). Written
 * by server/backoffice/csv.ts.
 */
export const CSV_FORMATS = ['csv', 'csv-iso'] as const;
export type CsvFormat = (typeof CSV_FORMATS)[number];

/**
 * Maps a long list of rows a slice at a time, the event loop free between slices: a back-office page of hundreds
 * of rows (an export's) is mapped and checked on the server's only thread, and a shopper's request that arrives
 * meanwhile should wait for one slice, not the page.
 */
const ROWS_PER_SLICE = 32;

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

export async function mapInSlices<T, U>(rows: readonly T[], map: (row: T) => U): Promise<U[]> {
  const mapped: U[] = [];
  for (let start = 0; start < rows.length; start += ROWS_PER_SLICE) {
    if (start > 0) await turn();
    for (const row of rows.slice(start, start + ROWS_PER_SLICE)) mapped.push(map(row));
  }
  return mapped;
}

/** One schema step, written for both databases side by side, and the helper that puts our constants into its SQL. */

export interface Migration {
  version: number;
  name: string;
  sqlite: string;
  postgres: string;
}

/** A SQL list of string literals; only ever given our own constants. */
export function sqlList(values: readonly string[]): string {
  return values.map((value) => `'${value}'`).join(', ');
}

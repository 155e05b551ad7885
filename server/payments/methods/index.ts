/**
 * Every payment method's adapter, keyed by method: adding a method to `core/methods` fails to compile until it has
 * an adapter here.
 */
import type { Method } from '../../../core/methods';
import type { MethodAdapter } from './adapter';
import { openFinance } from './openfinance';
import { pix } from './pix';

export const METHOD_ADAPTERS: Record<Method, MethodAdapter> = { pix, openfinance: openFinance };

export type { MethodAdapter, MethodStart } from './adapter';

/** The method of a provider transaction record, when one of ours recognizes it. */
export function methodOfRecord(record: Parameters<MethodAdapter['recognizes']>[0]): Method | undefined {
  return (Object.keys(METHOD_ADAPTERS) as Method[]).find((method) => METHOD_ADAPTERS[method].recognizes(record));
}

/**
 * The payment methods' names as people read them, in one table: the element (its languages' strings are held to it
 * by their types), the console, the back office's CSV export, the demo's pages and the server's messages. Brand
 * names, written the same in pt-BR and in every language the element speaks.
 */
import type { Method } from './methods.js';

export const METHOD_LABELS = { pix: 'Pix', openfinance: 'Open Finance' } as const satisfies Record<Method, string>;

/** The label of a method, as a type: the element's strings name theirs with it, so a spelling that drifts fails to compile. */
export type MethodLabel<M extends Method> = (typeof METHOD_LABELS)[M];

/** The label of `method`, or the text itself for a value the table does not name (a method of another version). */
export const methodLabel = (method: string): string => (METHOD_LABELS as Record<string, string>)[method] ?? method;

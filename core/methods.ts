/**
 * Payment methods, in one place. What differs per method on the server (the provider call, the view fields) lives
 * in the BFF's adapters; what the browser also needs (the list, whether the payer's CPF is required) lives here.
 */

export const METHODS = ['pix', 'openfinance'] as const;
export type Method = (typeof METHODS)[number];

export const isMethod = (value: unknown): value is Method => (METHODS as readonly unknown[]).includes(value);

/** Whether a method needs the payer's CPF before the checkout can be created. */
export const PAYER_CPF: Record<Method, 'optional' | 'required'> = {
  pix: 'optional',
  openfinance: 'required',
};

/** For the `default:` branch of a switch over a union: fails to compile when a member is not handled. */
export function unreachable(value: never): never {
  throw new Error(`Unhandled value: ${String(value)}`);
}

/** Envelopes, errors and scalar formats shared by every operation of the partner API. */
import { z } from 'zod';

/** A non-negative decimal number as text, for example "10.50" or "10.500000". */
export const decimalString = z.string().regex(/^\d+(\.\d+)?$/, 'Expected a decimal number as text, like "10.50"');

/** An ISO 8601 instant such as 2026-11-23T10:00:00.000Z. */
export const isoDate = z.string();

/** Successful envelope: `{ statusCode: "Done", data }`. */
export const done = <T extends z.ZodType>(data: T) => z.object({ statusCode: z.literal('Done'), data });

/** The cancel operation answers with the status alone. */
export const doneOnly = z.object({ statusCode: z.literal('Done') });

/** One item of a 400 `InvalidRequestFormatError`. */
export const validationDetail = z.looseObject({
  path: z.string(),
  code: z.string(),
  message: z.string(),
  info: z.record(z.string(), z.unknown()).optional(),
});
export type ValidationDetail = z.infer<typeof validationDetail>;

/** Error envelope: `{ statusCode: "Error", error: { name, message, code?, details? } }`. */
export const errorEnvelope = z.object({
  statusCode: z.literal('Error'),
  error: z.looseObject({
    name: z.string(),
    message: z.string(),
    code: z.string().optional(),
    details: z.union([z.array(validationDetail), z.looseObject({ reason: z.string().optional() })]).optional(),
  }),
});
export type ErrorEnvelope = z.infer<typeof errorEnvelope>;

/** Where and how the provider notifies state changes of a transaction. */
export const webhookConfig = z.object({
  url: z.url({ protocol: /^https?$/ }),
  customHeaderName: z.string().min(1).optional(),
  customHeaderValue: z.string().optional(),
});
export type WebhookConfig = z.infer<typeof webhookConfig>;

/** Page size accepted by receiver and payment-request listings. */
export const pageLimit = z.union([z.literal(5), z.literal(10), z.literal(20)]);

/** A page of results. */
export const page = <T extends z.ZodType>(item: T) =>
  z.object({ limit: z.number(), offset: z.number(), total: z.number(), items: z.array(item) });

export const loginRequest = z.object({ accessKey: z.string(), secret: z.string() });
export type LoginRequest = z.infer<typeof loginRequest>;

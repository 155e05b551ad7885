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

/**
 * Error envelope: `{ statusCode: "Error", error: { name, message, code?, details? } }`. Only `name` is required: a
 * missing message reads as empty, and `details` of another shape than the two the contract shows is dropped (the
 * error keeps the whole answer as `raw`), so the provider's own error name always reaches the caller.
 */
export const errorEnvelope = z.looseObject({
  statusCode: z.literal('Error'),
  error: z.looseObject({
    name: z.string(),
    message: z.string().catch(''),
    code: z.string().optional().catch(undefined),
    details: z
      .union([z.array(validationDetail), z.looseObject({ reason: z.string().optional() })])
      .optional()
      .catch(undefined),
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

/** A page of results; fields beyond the four are kept. */
export const page = <T extends z.ZodType>(item: T) =>
  z.looseObject({ limit: z.number(), offset: z.number(), total: z.number(), items: z.array(item) });

/**
 * For answers whose shape the contract does not publish: `schema` reads what we know of it, and the answer exactly as
 * it came is kept beside, as `raw`, for whatever else the provider sends.
 */
export const keepRaw = <T extends z.ZodType<Record<string, unknown>>>(schema: T) =>
  z.unknown().transform((raw, ctx): z.output<T> & { raw: unknown } => {
    const parsed = schema.safeParse(raw);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) ctx.issues.push({ ...issue, input: raw } as never);
      return z.NEVER;
    }
    return { ...parsed.data, raw };
  });

/** An optional part of an unpublished shape: absent, null or of another type all read as absent. */
export const maybe = <T extends z.ZodType>(schema: T) =>
  schema
    .nullish()
    .transform((value): z.output<T> | undefined => value ?? undefined)
    .catch(undefined);

export const loginRequest = z.object({ accessKey: z.string(), secret: z.string() });
export type LoginRequest = z.infer<typeof loginRequest>;

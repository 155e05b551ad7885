/**
 * The JSON Schema of the merchant's events, from their zod schemas (./merchant-events): shipped as
 * `docs/merchant-events.schema.json` for receivers in any language. `npx tsx server/store/merchant-events-schema.ts` writes the file; a unit
 * test fails when it is out of date.
 */
import { writeFileSync } from 'node:fs';
import { z } from 'zod';
import { MERCHANT_EVENT_TYPES } from '../../core/backoffice';
import { MERCHANT_EVENT_DATA } from './merchant-events';

export function merchantEventsJsonSchema(): Record<string, unknown> {
  const envelope = (type: string, data: z.ZodType) =>
    z.object({
      id: z.string().regex(/^evt_[A-Za-z0-9_-]+$/),
      seq: z.int().positive(),
      type: z.literal(type),
      createdAt: z.iso.datetime({ offset: true }),
      data,
    });
  const events = MERCHANT_EVENT_TYPES.map((type) => envelope(type, MERCHANT_EVENT_DATA[type]));
  return {
    title: "The merchant's events: each webhook's body and each item of GET /api/admin/webhook-events",
    ...z.toJSONSchema(z.union(events as unknown as [z.ZodType, z.ZodType, ...z.ZodType[]])),
  };
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop()!)) {
  const file = new URL('../../docs/merchant-events.schema.json', import.meta.url);
  writeFileSync(file, `${JSON.stringify(merchantEventsJsonSchema(), null, 2)}\n`);
  console.log(`wrote ${file.pathname}`);
}

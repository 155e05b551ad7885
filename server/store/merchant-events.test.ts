import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { merchantEventsJsonSchema } from './merchant-events-schema';

describe('the shipped schema of the merchant events', () => {
  it('is docs/merchant-events.schema.json, generated from the zod schemas (npx tsx server/store/merchant-events-schema.ts writes it)', () => {
    const shipped: unknown = JSON.parse(readFileSync(new URL('../../docs/merchant-events.schema.json', import.meta.url), 'utf8'));
    expect(shipped).toEqual(merchantEventsJsonSchema());
  });
});

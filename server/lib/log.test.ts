import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLog } from './log';
import { annotateRequest, inRequest, requestIdOf } from './request-scope';

/** A log whose lines are kept, parsed. */
function capturedLog() {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const text of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(text) as Record<string, unknown>);
      done();
    },
  });
  return { log: createLog({ destination }), lines };
}

describe('the server log', () => {
  it('writes one JSON object a line with time, level, msg and the request scope', () => {
    const { log, lines } = capturedLog();
    inRequest('req-1', () => {
      annotateRequest({ checkoutId: 'co_1', orderId: 'A-1', transactionId: 'tx_1' });
      log.log({ method: 'POST', path: '/api/checkouts', status: 201 }, 'POST /api/checkouts 201');
    });
    log.warn('outside:', new Error('boom'));
    expect(lines[0]).toMatchObject({
      level: 'info',
      msg: 'POST /api/checkouts 201',
      reqId: 'req-1',
      checkoutId: 'co_1',
      orderId: 'A-1',
      transactionId: 'tx_1',
      status: 201,
    });
    expect(Date.parse(lines[0]!.time as string)).not.toBeNaN();
    expect(lines[1]).toMatchObject({ level: 'warn', msg: 'outside', err: { message: 'boom' } });
    expect(lines[1]).not.toHaveProperty('reqId');
  });

  it('censors secret fields handed by mistake', () => {
    const { log, lines } = capturedLog();
    log.error({ authorization: 'Bearer s3cr3t', payer: { cpf: '52998224725' }, cookie: 'pix_admin=abc' }, 'oops');
    const text = JSON.stringify(lines);
    for (const secret of ['s3cr3t', '52998224725', 'pix_admin=abc']) expect(text).not.toContain(secret);
  });
});

describe('requestIdOf', () => {
  it("keeps a trusted proxy's plain id and makes one otherwise", () => {
    expect(requestIdOf('abc-123', true)).toBe('abc-123');
    expect(requestIdOf('abc-123', false)).not.toBe('abc-123');
    expect(requestIdOf('a"b\nc', true)).toMatch(/^[0-9a-f-]{36}$/);
    expect(requestIdOf('x'.repeat(200), true)).toMatch(/^[0-9a-f-]{36}$/);
  });
});

import { describe, expect, it } from 'vitest';
import { isStoreUnavailable } from './store-unavailable';

const coded = (code: string, message = 'x') => Object.assign(new Error(message), { code });

describe('isStoreUnavailable', () => {
  it.each([
    ['a refused connection', coded('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432')],
    ['an administrator shutdown (57P01)', coded('57P01', 'terminating connection due to administrator command')],
    ['a server starting up (57P03)', coded('57P03', 'the database system is starting up')],
    ['too many connections (53300)', coded('53300')],
    ['a dropped connection', new Error('Connection terminated unexpectedly')],
    ["the pool's connect timeout", new Error('timeout exceeded when trying to connect')],
    ['a full disk', coded('SQLITE_FULL', 'database or disk is full')],
    ['an I/O error (extended code)', coded('SQLITE_IOERR_WRITE', 'disk I/O error')],
    ['the write lock held past its timeout', coded('SQLITE_BUSY', 'database is locked')],
    ['a cause of a wrapper', new Error('reading the checkout', { cause: coded('ECONNREFUSED') })],
    ['one error of an AggregateError', new AggregateError([new Error('other'), coded('ECONNREFUSED')])],
  ])('says yes to %s', (_what, error) => {
    expect(isStoreUnavailable(error)).toBe(true);
  });

  it.each([
    ['a plain bug', new TypeError("Cannot read properties of undefined (reading 'id')")],
    ['a unique violation (23505)', coded('23505', 'duplicate key value violates unique constraint')],
    ['a constraint failure', coded('SQLITE_CONSTRAINT_UNIQUE', 'UNIQUE constraint failed')],
    ['a syntax error (42601)', coded('42601')],
    ['a string', 'ECONNREFUSED'],
    ['undefined', undefined],
  ])('says no to %s', (_what, error) => {
    expect(isStoreUnavailable(error)).toBe(false);
  });

  it('stops at a cycle of causes', () => {
    const a = new Error('a');
    const b = new Error('b', { cause: a });
    Object.assign(a, { cause: b });
    expect(isStoreUnavailable(a)).toBe(false);
  });
});

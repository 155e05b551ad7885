import { describe, expect, it } from 'vitest';
import { crc16, decodeBrCode, encodeBrCode } from '../../../server/sandbox/brcode';
import { BASE, cashIn, client, makeSandbox } from './helpers';

const sample = {
  location: 'pix.example.com/sandbox/v1/QR/cob/' + 'ab'.repeat(16),
  merchantName: 'Loja Sandbox',
  merchantCity: 'São Paulo',
  reference: 'abc123',
};

describe('BR Code', () => {
  it('computes CRC-16/CCITT-FALSE (check value of "123456789" is 29B1)', () => {
    expect(crc16('123456789')).toBe('29B1');
    expect(crc16('')).toBe('FFFF');
  });

  it('encodes a dynamic PIX code whose fields decode back and whose CRC checks', () => {
    const code = encodeBrCode({ ...sample, amount: '10.50' });
    const decoded = decodeBrCode(code);
    expect(decoded.crcValid).toBe(true);
    expect(decoded.fields['00']).toBe('01');
    expect(decoded.fields['01']).toBe('12');
    expect(decoded.merchantAccount).toEqual({ '00': 'br.gov.bcb.pix', '25': sample.location });
    expect(decoded.fields['52']).toBe('0000');
    expect(decoded.fields['53']).toBe('986');
    expect(decoded.amount).toBe('10.50');
    expect(decoded.fields['58']).toBe('BR');
    expect(decoded.merchantName).toBe('LOJA SANDBOX');
    expect(decoded.merchantCity).toBe('SAO PAULO');
    expect(decoded.reference).toBe('abc123');
    expect(code).toMatch(/6304[0-9A-F]{4}$/);
  });

  it('leaves field 54 out when the amount is editable', () => {
    const decoded = decodeBrCode(encodeBrCode(sample));
    expect(decoded.fields['54']).toBeUndefined();
    expect(decoded.crcValid).toBe(true);
  });

  it('detects a changed character through the CRC', () => {
    const code = encodeBrCode({ ...sample, amount: '10.50' });
    expect(decodeBrCode(code.replace('10.50', '90.50')).crcValid).toBe(false);
  });

  it('cuts merchant name and city to 25 and 15 characters and refuses a location over 77', () => {
    const decoded = decodeBrCode(encodeBrCode({ ...sample, merchantName: 'N'.repeat(40), merchantCity: 'C'.repeat(30) }));
    expect(decoded.merchantName).toHaveLength(25);
    expect(decoded.merchantCity).toHaveLength(15);
    expect(() => encodeBrCode({ ...sample, location: 'x'.repeat(78) })).toThrow(/77/);
  });

  it('refuses a truncated payload', () => {
    expect(() => decodeBrCode('000201010212269')).toThrow(/Malformed/);
  });
});

describe('cash-in copy-and-paste code', () => {
  it('carries the amount, the location of the charge and the transaction id as reference', async () => {
    const { sandbox } = makeSandbox();
    const api = await client(sandbox);
    const reply = await api('POST', '/accounts/pix/cashin', cashIn('http://127.0.0.1:1/x', { payment: { value: { original: '1234.5' } } }));
    const decoded = decodeBrCode(reply.body.data.payment.qrCode);
    expect(decoded.crcValid).toBe(true);
    expect(decoded.amount).toBe('1234.50');
    expect(decoded.location).toMatch(/^127\.0\.0\.1:3000\/sandbox\/v1\/QR\/cob\/[0-9a-f]{32}$/);
    expect(decoded.location!.length).toBeLessThanOrEqual(77);
    expect(decoded.reference).toBe(reply.body.data.transaction.id);
    expect(reply.body.data.payment.qrCodeLocation).toBe(`${BASE}/sandbox/v1/system/qrcodeviewer/${reply.body.data.transaction.id}`);
    sandbox.close();
  });

  it('has no amount when the value is editable, and the location answers the charge', async () => {
    const { sandbox } = makeSandbox();
    const api = await client(sandbox);
    const reply = await api('POST', '/accounts/pix/cashin', {
      payment: { value: { original: '5.00', editable: true } },
      webhook: { url: 'http://127.0.0.1:1/x' },
    });
    expect(reply.status).toBe(201);
    const decoded = decodeBrCode(reply.body.data.payment.qrCode);
    expect(decoded.amount).toBeUndefined();
    const cob = await sandbox.app.request(decoded.location!.replace('127.0.0.1:3000/sandbox', ''));
    expect(cob.status).toBe(200);
    expect(await cob.json()).toMatchObject({
      txid: reply.body.data.transaction.id,
      status: 'ATIVA',
      valor: { original: '5.00', modalidadeAlteracao: 1 },
    });
    sandbox.close();
  });
});

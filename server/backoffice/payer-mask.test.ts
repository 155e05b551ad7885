import { describe, expect, it } from 'vitest';
import { maskPayerData, maskTaxNumber } from './payer-mask';

const record = {
  transaction: {
    id: 'tx-1',
    amount: '10.000000',
    accountNumber: '998877',
    payer: { name: 'Ana', taxNumber: '52998224725', bankName: 'Banco', accountAgency: '0001', accountNumber: '123456', accountDigit: '7' },
    recipient: { name: 'Loja', taxNumber: '11.222.333/0001-81' },
  },
  payment: { payer: { cpf: '529.982.247-25', name: 'Ana' }, key: { type: 'CPF', value: '52998224725' }, note: 'pedido 52998224725' },
  webhook: { deliveryStatus: 'Delivered' },
  list: [{ cnpj: '11222333000181' }],
};

describe('maskPayerData', () => {
  it('masks every document and leaves out every account number of a provider record', () => {
    const out = maskPayerData(record);
    const text = JSON.stringify(out);
    expect(text).not.toMatch(/52998224725|529\.982\.247-25|11222333000181|11\.222\.333\/0001-81/);
    expect(text).not.toMatch(/123456|998877|0001"|accountAgency|accountDigit/);
    expect(out.transaction.payer.taxNumber).toBe('***.982.247-**');
    expect(out.payment.payer.cpf).toBe('***.982.247-**');
    expect(out.payment.key.value).toBe('***.982.247-**');
    expect(out.transaction.recipient.taxNumber).toBe('**.222.333/****-**');
    expect(out.payment.note).toBe('pedido ***.982.247-**');
    expect(out.transaction.payer.name).toBe('Ana');
    expect(out.transaction.payer.bankName).toBe('Banco');
    expect(out.transaction.amount).toBe('10.000000');
  });

  it('leaves the original untouched', () => {
    maskPayerData(record);
    expect(record.transaction.payer.taxNumber).toBe('52998224725');
  });

  it('masks a malformed document in a document field as ***', () => {
    expect(maskTaxNumber('123')).toBe('***');
    expect(maskPayerData({ cpf: 'abc' })).toEqual({ cpf: '***' });
  });
});

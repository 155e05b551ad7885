import { describe, expect, it } from 'vitest';
import { METHODS, PAYER_CPF, type Method } from '../../../core/methods';
import type { CashInRequest, CashInResponse, InitiationRequest, InitiationResponse, ProviderClient, WebhookConfig } from '../../provider';
import { ActivationSchema, type Checkout } from '../../store/types';
import type { PricedOrder } from '../orders';
import { METHOD_ADAPTERS, type MethodStart } from './index';

const webhook: WebhookConfig = {
  url: 'https://bff.example/webhooks/provider',
  customHeaderName: 'x-webhook-secret',
  customHeaderValue: 's3cret',
};
const order: PricedOrder = { amountCents: 123450, description: 'Pedido 1001' };
const value = { original: '1234.50' };

function checkout(method: Method, fields: Partial<Checkout> = {}): Checkout {
  return {
    id: 'chk_1',
    orderId: 'order-1001',
    method,
    state: 'Creating',
    amountCents: 123450,
    currency: 'BRL',
    description: null,
    transactionId: null,
    payerCpf: null,
    payerName: null,
    details: {},
    duplicateOf: null,
    seq: 0,
    expiresAt: null,
    createdAt: '2026-01-01T10:00:00.000Z',
    updatedAt: '2026-01-01T10:00:00.000Z',
    lastWebhookAt: null,
    lastCheckedAt: null,
    ...fields,
  };
}

/** A provider with only PIX cash-in; any other operation is absent, so calling it fails the test. */
function pixProvider(answer: Partial<CashInResponse['transaction']> = {}) {
  const calls: CashInRequest[] = [];
  const provider = {
    pix: {
      createCashIn: (body: CashInRequest): Promise<CashInResponse> => {
        calls.push(body);
        return Promise.resolve({
          transaction: {
            id: 'tx-pix-1',
            orderId: 'order-1001',
            date: '2026-01-01T10:00:01.000Z',
            state: 'Created',
            amount: '1234.500000',
            ...answer,
          },
          payment: { qrCode: '00020126580014br.gov.bcb.pix…6304ABCD', qrCodeLocation: 'https://pix.example/qr/tx-pix-1' },
        });
      },
    },
  };
  return { provider: provider as unknown as ProviderClient, calls };
}

/** A provider with only the OpenFinance initiation. */
function openFinanceProvider() {
  const calls: InitiationRequest[] = [];
  const provider = {
    openFinance: {
      createInitiation: (body: InitiationRequest): Promise<InitiationResponse> => {
        calls.push(body);
        return Promise.resolve({ transactionId: 'tx-of-1', checkoutUrl: 'https://bank.example/authorise/tx-of-1' });
      },
    },
  };
  return { provider: provider as unknown as ProviderClient, calls };
}

const start = (provider: ProviderClient, c: Checkout): MethodStart => ({ provider, checkout: c, order, webhook, value });

describe('METHOD_ADAPTERS', () => {
  it.each(METHODS)('%s: keyed by its own method, with the payer rule of core PAYER_CPF', (method) => {
    const adapter = METHOD_ADAPTERS[method];
    expect(adapter.method).toBe(method);
    expect(adapter.payerCpf).toBe(PAYER_CPF[method]);
  });

  it('has an adapter for every method and nothing else', () => {
    expect(Object.keys(METHOD_ADAPTERS).sort()).toEqual([...METHODS].sort());
  });
});

describe('pix adapter', () => {
  const pix = METHOD_ADAPTERS.pix;

  it('keeps no fields before the provider call', () => {
    expect(pix.draftDetails({ returnUrl: 'https://shop.example/back' }, { returnUrl: 'https://shop.example/' })).toEqual({});
  });

  it('creates a PIX cash-in with amount, order and webhook, and the browser sees its QR code', async () => {
    const { provider, calls } = pixProvider();
    const activation = await pix.start(start(provider, checkout('pix')));

    expect(calls).toEqual([
      {
        payment: { value: { original: '1234.50' } },
        transaction: { orderId: 'order-1001', orderDescription: 'Pedido 1001' },
        webhook,
      },
    ]);
    // An anonymous PIX sends no payer at all (not even an empty one).
    expect(calls[0]!.payment).not.toHaveProperty('payer');

    expect(activation.transactionId).toBe('tx-pix-1');
    expect(activation.state).toBe('Created');
    expect(ActivationSchema.safeParse(activation).success).toBe(true);
    expect(pix.view(activation.details ?? {})).toEqual({
      qrCode: '00020126580014br.gov.bcb.pix…6304ABCD',
      qrCodeLocation: 'https://pix.example/qr/tx-pix-1',
    });
  });

  it('sends the payer when the checkout has a CPF, with the name only when known', async () => {
    const withName = pixProvider();
    await pix.start(start(withName.provider, checkout('pix', { payerCpf: '52998224725', payerName: 'Maria Silva' })));
    expect(withName.calls[0]!.payment.payer).toEqual({ cpf: '52998224725', name: 'Maria Silva' });

    const withoutName = pixProvider();
    await pix.start(start(withoutName.provider, checkout('pix', { payerCpf: '52998224725' })));
    expect(withoutName.calls[0]!.payment.payer).toEqual({ cpf: '52998224725' });
  });

  it.each([
    ['Created', 'Created'],
    ['Registered', 'Registered'],
    // A state with no checkout counterpart reads as waiting for the payer.
    ['Refunded', 'Registered'],
  ] as const)('provider state %s activates the checkout as %s', async (providerState, checkoutState) => {
    const { provider } = pixProvider({ state: providerState });
    expect((await pix.start(start(provider, checkout('pix')))).state).toBe(checkoutState);
  });

  it('shows missing or non-text fields as null', () => {
    expect(pix.view({})).toEqual({ qrCode: null, qrCodeLocation: null });
    expect(pix.view({ qrCode: 42, qrCodeLocation: { url: 'x' } })).toEqual({ qrCode: null, qrCodeLocation: null });
  });
});

describe('openfinance adapter', () => {
  const openFinance = METHOD_ADAPTERS.openfinance;
  const defaults = { returnUrl: 'https://shop.example/orders' };

  it("keeps the browser's return address, or the default one, before the provider call", () => {
    expect(openFinance.draftDetails({ returnUrl: 'https://shop.example/back' }, defaults)).toEqual({
      returnUrl: 'https://shop.example/back',
    });
    expect(openFinance.draftDetails({}, defaults)).toEqual({ returnUrl: 'https://shop.example/orders' });
    expect(openFinance.draftDetails({ returnUrl: undefined }, defaults)).toEqual({ returnUrl: 'https://shop.example/orders' });
  });

  it('creates an initiation with payer, amount, order, webhook and the drafted return address as redirectUrl', async () => {
    const { provider, calls } = openFinanceProvider();
    const details = openFinance.draftDetails({ returnUrl: 'https://shop.example/back?order=1001' }, defaults);
    const activation = await openFinance.start(start(provider, checkout('openfinance', { payerCpf: '52998224725', details })));

    expect(calls).toEqual([
      {
        payment: {
          payer: { taxNumber: '52998224725' },
          value: { original: '1234.50' },
          redirectUrl: 'https://shop.example/back?order=1001',
        },
        transaction: { orderId: 'order-1001', orderDescription: 'Pedido 1001' },
        webhook,
      },
    ]);

    expect(activation).toMatchObject({ state: 'Registered', transactionId: 'tx-of-1' });
    expect(ActivationSchema.safeParse(activation).success).toBe(true);
    expect(openFinance.view(activation.details ?? {})).toEqual({ checkoutUrl: 'https://bank.example/authorise/tx-of-1' });
  });

  it('uses the default return address as redirectUrl when the browser gave none', async () => {
    const { provider, calls } = openFinanceProvider();
    const details = openFinance.draftDetails({}, defaults);
    await openFinance.start(start(provider, checkout('openfinance', { payerCpf: '52998224725', details })));
    expect(calls[0]!.payment.redirectUrl).toBe('https://shop.example/orders');
  });

  it('shows a missing checkout address as null', () => {
    expect(openFinance.view({})).toEqual({ checkoutUrl: null });
    expect(openFinance.view({ returnUrl: 'https://shop.example/back' })).toEqual({ checkoutUrl: null });
  });
});

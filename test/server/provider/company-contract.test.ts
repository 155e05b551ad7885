/** The typed client's company-payment operations against the emulator over loopback (the BFF tests cover the rest). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProviderClient, ProviderError } from '../../../server/provider';
import { startSandbox } from '../helpers/sandbox';

let env: Awaited<ReturnType<typeof startSandbox>>;
let client: ProviderClient;
beforeAll(async () => {
  env = await startSandbox();
  client = env.client();
});
afterAll(() => env.close());

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error as ProviderError,
  );

describe('company payments through the client', () => {
  it('pages receivers 5, 10 or 20 at a time and refuses other sizes before sending', async () => {
    const page = await client.receivers.list({ 'dataset.limit': 5, 'dataset.offset': 0 });
    expect(page).toMatchObject({ limit: 5, offset: 0 });
    expect(page.items.length).toBeGreaterThan(0);
    // The client validates the query with the same schema: a size the provider refuses never leaves the process.
    await expect(client.receivers.list({ 'dataset.limit': 7 as 5, 'dataset.offset': 0 })).rejects.toThrow(/expected 5/);
  });

  it('reads one receiver in the list shape, and filters Denied to Rejected records', async () => {
    const [first] = (await client.receivers.list({ 'dataset.limit': 20, 'dataset.offset': 0 })).items;
    const single = await client.receivers.retrieve(first!.id);
    expect(single).toMatchObject({ limit: 50, offset: 0, total: 1, items: [{ id: first!.id }] });
    const denied = await client.receivers.list({ 'dataset.limit': 20, 'dataset.offset': 0, receiverStatus: 'Denied' });
    expect(denied.items.every((r) => r.receiverStatus === 'Rejected')).toBe(true);
    expect(await refusal(client.receivers.retrieve('nope'))).toMatchObject({ status: 404 });
  });

  it('refuses a payment request to an account of another receiver', async () => {
    const approved = (await client.receivers.list({ 'dataset.limit': 20, 'dataset.offset': 0, receiverStatus: 'Approved' })).items;
    expect(approved.length).toBeGreaterThanOrEqual(2);
    const [a, b] = approved;
    const [accountOfB] = await client.receivers.listAccounts(b!.id);
    const error = await refusal(
      client.paymentRequests.create({ amount: '10.00', description: 'x', refReceiver: a!.id, refBankAccount: accountOfB!.id }),
    );
    expect(error).toMatchObject({ status: 409, errorName: 'OperationError' });
  });

  it('uploads an invoice once through a time-limited address', async () => {
    const [receiver] = (await client.receivers.list({ 'dataset.limit': 5, 'dataset.offset': 0, receiverStatus: 'Approved' })).items;
    const [account] = await client.receivers.listAccounts(receiver!.id);
    const request = await client.paymentRequests.create({
      amount: '10.00',
      description: 'x',
      refReceiver: receiver!.id,
      refBankAccount: account!.id,
    });
    const address = await client.documents.createUploadAddress({
      properties: { name: 'Nota' },
      ownerType: 'Transaction',
      owner: request.id,
      type: 'Invoice',
      fileName: 'nota.pdf',
    });
    const pdf = Buffer.from('%PDF-1.4\n%%EOF\n');
    await expect(client.documents.upload(address, pdf, { contentType: 'application/pdf', size: pdf.length })).resolves.toMatchObject({
      fileName: 'nota.pdf',
    });
    expect(await refusal(client.documents.upload(address, pdf, { contentType: 'application/pdf', size: pdf.length }))).toMatchObject({
      status: 409,
    });

    const late = await client.documents.createUploadAddress({
      properties: { name: 'N2' },
      ownerType: 'Transaction',
      owner: request.id,
      type: 'Invoice',
      fileName: 'n2.pdf',
    });
    env.clock.advance(301_000);
    const expired = await refusal(client.documents.upload(late, pdf, { contentType: 'application/pdf', size: pdf.length }));
    expect(expired!.status).toBeGreaterThanOrEqual(400);
    expect(expired!.status).toBeLessThan(500);
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from '../../../server/sandbox';
import { receiverAccountList, receiverPage } from '../../../server/provider/schemas';
import { admin, companySandbox, FREE_CNPJ, SEED } from './company-helpers';
import { BASE, call, client, tempDir, type Api } from './helpers';

let sandbox: Sandbox;
let api: Api;
afterEach(() => sandbox?.close());

async function start() {
  ({ sandbox, api } = await companySandbox());
}

const listReceivers = (query: string) => api('GET', `/receivers?${query}`);

describe('GET /receivers', () => {
  it('pages the seeded receivers with page sizes 5, 10 and 20', async () => {
    await start();
    for (const limit of [5, 10, 20]) {
      const reply = await listReceivers(`dataset.limit=${limit}&dataset.offset=0`);
      expect(reply.status).toBe(200);
      expect(receiverPage.parse(reply.body.data)).toMatchObject({ limit, offset: 0, total: 4 });
      expect(reply.body.data.items.map((r: { id: string }) => r.id)).toEqual([
        SEED.approved,
        SEED.approvedToo,
        SEED.pending,
        SEED.rejected,
      ]);
    }
    const second = await listReceivers('dataset.limit=5&dataset.offset=3');
    expect(second.body.data).toMatchObject({ limit: 5, offset: 3, total: 4 });
    expect(second.body.data.items.map((r: { id: string }) => r.id)).toEqual([SEED.rejected]);
  });

  it.each(['1', '7', '50', '0'])('refuses page size %s with an enum error', async (limit) => {
    await start();
    const reply = await listReceivers(`dataset.limit=${limit}&dataset.offset=0`);
    expect(reply.status).toBe(400);
    expect(reply.body.error.name).toBe('InvalidRequestFormatError');
    expect(reply.body.error.details).toEqual([
      { path: '/dataset.limit', code: 'enum', message: expect.any(String), info: { allowedValues: [5, 10, 20] } },
    ]);
  });

  it('requires both paging parameters and a whole offset from 0', async () => {
    await start();
    const missing = await listReceivers('');
    expect(missing.status).toBe(400);
    expect(missing.body.error.details.map((d: { info: object }) => d.info)).toEqual([
      { missingProperty: 'dataset.limit' },
      { missingProperty: 'dataset.offset' },
    ]);
    expect((await listReceivers('dataset.limit=5&dataset.offset=-1')).body.error.details[0]).toMatchObject({
      path: '/dataset.offset',
      code: 'minimum',
    });
    expect((await listReceivers('dataset.limit=5&dataset.offset=1.5')).body.error.details[0]).toMatchObject({
      path: '/dataset.offset',
      code: 'type',
    });
  });

  it('filters by status, Denied meaning the Rejected receivers', async () => {
    await start();
    const ids = async (status: string) =>
      (await listReceivers(`dataset.limit=5&dataset.offset=0&receiverStatus=${status}`)).body.data.items.map((r: { id: string }) => r.id);
    expect(await ids('Approved')).toEqual([SEED.approved, SEED.approvedToo]);
    expect(await ids('Pending')).toEqual([SEED.pending]);
    expect(await ids('Denied')).toEqual([SEED.rejected]);
    const denied = await listReceivers('dataset.limit=5&dataset.offset=0&receiverStatus=Denied');
    expect(denied.body.data.items[0]).toMatchObject({ receiverStatus: 'Rejected', reviewNote: 'Contrato social ilegível' });
    const wrong = await listReceivers('dataset.limit=5&dataset.offset=0&receiverStatus=Rejected');
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.details[0]).toMatchObject({
      path: '/receiverStatus',
      code: 'enum',
      info: { allowedValues: ['Pending', 'Approved', 'Denied'] },
    });
  });

  it('needs the bearer token', async () => {
    await start();
    const reply = await call(sandbox, 'GET', '/v1/partners-int/receivers?dataset.limit=5&dataset.offset=0');
    expect(reply.status).toBe(401);
    expect(reply.body.error.details.reason).toBe('AuthenticationTokenInvalid');
  });
});

describe('GET /receivers/:receiverId', () => {
  it('answers the list shape with one item, limit 50 and offset 0', async () => {
    await start();
    const reply = await api('GET', `/receivers/${SEED.approved}`);
    expect(reply.status).toBe(200);
    expect(reply.body.data).toEqual({
      limit: 50,
      offset: 0,
      total: 1,
      items: [
        {
          id: SEED.approved,
          creationDate: '2026-01-15T12:00:00.000Z',
          receiverStatus: 'Approved',
          companyFantasyName: 'Papelaria Central',
          companyCNPJ: SEED.cnpj,
          reviewNote: 'Documentação conferida',
        },
      ],
    });
  });

  it('answers 404 for an unknown receiver', async () => {
    await start();
    const reply = await api('GET', '/receivers/nope');
    expect(reply.status).toBe(404);
    expect(reply.body).toMatchObject({ statusCode: 'Error', error: { name: 'NotFoundError' } });
  });
});

describe('GET /receivers/:receiverId/accounts', () => {
  it('lists the accounts with CNPJ keys, 50 by default, paged by offset and limit', async () => {
    await start();
    const all = await api('GET', `/receivers/${SEED.approved}/accounts`);
    expect(all.status).toBe(200);
    expect(receiverAccountList.parse(all.body.data).map((a) => a.id)).toEqual([SEED.account, SEED.secondAccount]);
    expect(all.body.data[0]).toEqual({
      id: SEED.account,
      bankCode: '001',
      bankName: 'Banco do Brasil',
      accountAgency: '1234',
      accountNumber: '56789-0',
      accountOwnerDocNumber: SEED.cnpj,
      pixKey: SEED.cnpj,
      pixKeyType: 'CNPJ',
    });
    const page = await api('GET', `/receivers/${SEED.approved}/accounts?offset=1&limit=1`);
    expect(page.body.data.map((a: { id: string }) => a.id)).toEqual([SEED.secondAccount]);
    expect((await api('GET', `/receivers/${SEED.rejected}/accounts`)).body.data).toEqual([]);
  });

  it('refuses a page size outside 1 to 50, a negative offset and an unknown receiver', async () => {
    await start();
    expect((await api('GET', `/receivers/${SEED.approved}/accounts?limit=51`)).body.error.details[0]).toMatchObject({
      path: '/limit',
      code: 'maximum',
    });
    expect((await api('GET', `/receivers/${SEED.approved}/accounts?limit=0`)).status).toBe(400);
    expect((await api('GET', `/receivers/${SEED.approved}/accounts?offset=-2`)).body.error.details[0]).toMatchObject({
      path: '/offset',
      code: 'minimum',
    });
    expect((await api('GET', '/receivers/nope/accounts')).status).toBe(404);
  });
});

describe('seed data', () => {
  it('is written on the first start and not again after a restart', async () => {
    const dataDir = tempDir();
    const open = () => createSandbox({ dataDir, publicBaseUrl: BASE, webhookRetry: { delaysMs: [] } });
    const first = open();
    const firstApi = await client(first);
    expect((await firstApi('GET', '/receivers?dataset.limit=20&dataset.offset=0')).body.data.total).toBe(4);
    first.close();
    sandbox = open();
    api = await client(sandbox);
    const again = await api('GET', '/receivers?dataset.limit=20&dataset.offset=0');
    expect(again.body.data.total).toBe(4);
    expect((await api('GET', `/receivers/${SEED.approved}/accounts`)).body.data).toHaveLength(2);
  });
});

describe('admin routes for receivers', () => {
  it('register a receiver with a valid CNPJ, add an account and review it', async () => {
    await start();
    const created = await admin(sandbox, 'POST', '/receivers', { companyFantasyName: 'Oficina Nova', companyCNPJ: FREE_CNPJ });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ receiverStatus: 'Pending', companyCNPJ: '87654321000198', reviewNote: null });
    const id = created.body.data.id;
    const account = await admin(sandbox, 'POST', `/receivers/${id}/accounts`, {
      bankCode: '260',
      bankName: 'Nu Pagamentos',
      accountAgency: '0001',
      accountNumber: '998877-1',
    });
    expect(account.status).toBe(201);
    expect(account.body.data).toMatchObject({ pixKey: '87654321000198', pixKeyType: 'CNPJ', accountOwnerDocNumber: '87654321000198' });
    const approved = await admin(sandbox, 'POST', `/receivers/${id}/approve`, { reviewNote: 'ok' });
    expect(approved.body.data).toMatchObject({ receiverStatus: 'Approved', reviewNote: 'ok' });
    expect((await api('GET', `/receivers/${id}/accounts`)).body.data).toHaveLength(1);
    const rejected = await admin(sandbox, 'POST', `/receivers/${id}/reject`, { reviewNote: 'CNPJ baixado' });
    expect(rejected.body.data).toMatchObject({ receiverStatus: 'Rejected', reviewNote: 'CNPJ baixado' });
    const overview = await admin(sandbox, 'GET', '');
    expect(overview.body.data.receivers).toHaveLength(5);
    expect(overview.body.data.receivers[0].accounts).toHaveLength(2);
  });

  it('refuse an invalid CNPJ, a bad account and an unknown receiver', async () => {
    await start();
    const bad = await admin(sandbox, 'POST', '/receivers', { companyFantasyName: 'X', companyCNPJ: '11.222.333/0001-82' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details[0]).toMatchObject({ path: '/companyCNPJ', code: 'format' });
    const account = await admin(sandbox, 'POST', `/receivers/${SEED.approved}/accounts`, {
      bankCode: '1',
      bankName: 'B',
      accountAgency: '1',
      accountNumber: '2',
      pixKey: '123',
    });
    expect(account.status).toBe(400);
    expect((await admin(sandbox, 'POST', '/receivers/nope/approve')).status).toBe(404);
  });
});

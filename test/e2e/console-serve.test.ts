/**
 * The merchant console as a merchant going live meets it: the real `npm run serve` process (no demo, no emulator of
 * its own) against a provider (the emulator of another server) and the merchant's order service (a stub), its users
 * made beforehand with the real `npm run admin` CLI. An order is paid at the provider; in Chromium the operator signs
 * in by keyboard, refunds part of it (sent) and asks a larger refund above APPROVAL_ABOVE (kept, nothing sent to the
 * provider) and exports the pt-BR CSV; a viewer sees no refund form and the server refuses its refund; the operator
 * cannot approve; the first owner approves in the console, the refund reaches the provider and completes, and no
 * more than was paid can be refunded; the audit trail says who did each thing. axe on the sign-in and the approvals,
 * on a desktop and a 390 px phone.
 */
import { readFile } from 'node:fs/promises';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { signOrderToken } from '../../server/bff/order-token';
import { sendJson, startRecordingServer } from '../server/helpers/http';
import { jsonClient, startTestServer, tempDir, type TestServer } from '../server/helpers/server';
import { expectNoAxeViolations, forgiveSignedOut } from './backoffice-helpers';
import { focused, notice, openSection } from './console-sections-helpers';
import {
  addUserWithCli,
  adminCallAs,
  centsOfPtBr,
  focusedId,
  openPayment,
  openSignIn,
  providerTransactionsOf,
  ptBrCsvRecords,
  refundByKeyboard,
  saoPauloWallClock,
  signInByKeyboard,
  startServe,
  unitsOfPtBr,
  type ServeProcess,
} from './console-serve-helpers';
import { BrowserProblems, launchChromium, newWatchedContext, type ContextOptions } from './helpers';

const ORDERS_TOKEN = 'orders-token-of-the-console-serve-test';
const ORDER_ID = 'LOJA-2024';
const ORDER_CENTS = 8_000;
/** With a `;` and quotes, so the CSV must quote its cell, and accents, so it must be read as UTF-8. */
const ORDER_DESCRIPTION = 'Pedido LOJA-2024; café "especial" e pão';
const PASSWORD = 'uma-senha-longa-de-teste-77';
const USERS = {
  owner: 'dona@loja.test',
  secondOwner: 'socio@loja.test',
  operator: 'operador@loja.test',
  viewer: 'leitura@loja.test',
};
const PAYER = { name: 'Maria Pagadora', taxNumber: '52998224725' };

let provider: TestServer;
let orders: Awaited<ReturnType<typeof startRecordingServer>>;
let serve: ServeProcess;
let browser: Browser;
const problems = new BrowserProblems();
const contexts: BrowserContext[] = [];

/** What the steps hand on to the next ones. */
const made: { checkoutId?: string; operator?: BrowserContext; pendingKey?: string } = {};
const need = <T>(value: T | undefined, what: string): T => {
  if (value === undefined) throw new Error(`${what} is missing: an earlier step failed`);
  return value;
};

async function newContext(options: ContextOptions = {}) {
  const context = await newWatchedContext(browser, problems, options);
  contexts.push(context);
  return context;
}

/** The refunds of the paid checkout as the BFF tells `context`'s user. */
const refundsAs = async (context: BrowserContext) =>
  (await adminCallAs(context, serve.url, 'GET', `/checkouts/${need(made.checkoutId, 'the paid checkout')}/refunds`)).body as {
    paid: string;
    refunded: string;
    refundable: string;
    data: { idempotencyKey: string; orderId: string; state: string; amount: string; transactionId: string | null; createdAt: string }[];
  };

beforeAll(async () => {
  // The provider: the emulator of a server of its own, reached over HTTP as a merchant's provider would be.
  provider = await startTestServer();
  // The merchant's order service: prices its orders for the BFF, behind ORDERS_TOKEN.
  orders = await startRecordingServer((req, res) => {
    if (req.headers.authorization !== `Bearer ${ORDERS_TOKEN}`) return sendJson(res, 401, { error: 'no' });
    if (req.url === `/orders/${ORDER_ID}`) return sendJson(res, 200, { amountCents: ORDER_CENTS, description: ORDER_DESCRIPTION });
    sendJson(res, 404, { error: 'not found' });
  });
  const env = {
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: tempDir('pix-console-serve-'),
    DATABASE_URL: '',
    PUBLIC_BASE_URL: '',
    ALLOWED_ORIGINS: '',
    ADMIN_TOKEN: '',
    MERCHANT_WEBHOOK_URL: '',
    WEBHOOK_SIGNING_KEY: '',
    PROVIDER_BASE_URL: `${provider.url}/sandbox/v1`,
    PROVIDER_ACCESS_KEY: 'sandbox-access-key',
    PROVIDER_SECRET: 'sandbox-secret',
    ORDERS_URL: `${orders.url}/orders`,
    ORDERS_TOKEN,
    APPROVAL_ABOVE: '50.00',
    // Not a test of the second factor (test/server/backoffice/mfa.test.ts is): its users sign in with a password.
    MFA_REQUIRED: 'off',
  };
  // The users, with the real CLI on the server's store, before it starts (one at a time: one SQLite file).
  for (const [email, role] of [
    [USERS.owner, 'owner'],
    [USERS.secondOwner, 'owner'],
    [USERS.operator, 'operator'],
    [USERS.viewer, 'viewer'],
  ] as const) {
    const added = await addUserWithCli(env, email, role, PASSWORD);
    expect(added, `npm run admin -- user add ${email}`).toMatchObject({
      code: 0,
      output: expect.stringContaining(`Added ${email} as ${role}.`),
    });
  }
  serve = await startServe(env);
  browser = await launchChromium();
}, 90_000);

// Each test accounts for its own browser problems; a failed one leaves none to the next.
afterEach(() => {
  problems.problems.splice(0);
});

afterAll(async () => {
  await Promise.all(contexts.map((context) => context.close()));
  await browser?.close();
  await serve?.stop();
  await orders?.close();
  await provider?.close();
});

describe('the console through npm run serve', () => {
  it('a paid order: a checkout made through the BFF with a signed order token, paid at the provider', async () => {
    const json = jsonClient(serve.url);
    const orderToken = signOrderToken(ORDERS_TOKEN, ORDER_ID, new Date(Date.now() + 3_600_000));
    const created = await json('POST', '/api/checkouts', { orderId: ORDER_ID, orderToken, method: 'pix' });
    expect(created, created.text).toMatchObject({
      status: 201,
      body: { orderId: ORDER_ID, amount: '80.00', description: ORDER_DESCRIPTION, state: 'Registered' },
    });
    made.checkoutId = created.body.id;
    // The payer pays the PIX code at the provider (its sandbox's pay route); its webhook reaches the BFF.
    await provider.provider.sandbox.pix.complete(created.body.transactionId, PAYER);
    await expect
      .poll(async () => (await json('GET', `/api/checkouts/${created.body.id}`)).body.state, {
        timeout: 10_000,
        message: 'the BFF shows it paid',
      })
      .toBe('Completed');
  });

  it(
    'the operator signs in by keyboard, refunds part (sent), asks more above the threshold (kept) and exports the CSV',
    { timeout: 60_000 },
    async () => {
      const checkoutId = need(made.checkoutId, 'the paid checkout');
      const context = await newContext();
      made.operator = context;
      const page = await context.newPage();
      await openSignIn(page, serve.url);
      await expectNoAxeViolations(page, 'sign-in (desktop)');
      await signInByKeyboard(page, USERS.operator, PASSWORD);
      await page.getByRole('navigation', { name: 'Seções do console' }).waitFor();
      expect(await page.getByTestId('signed-in-as').textContent()).toBe(USERS.operator);
      expect(await page.getByTestId('signed-in-role').textContent()).toBe('Operador');

      const { refund } = await openPayment(page, ORDER_ID, 'R$\u00a080,00');
      expect(await refund.getByTestId('refund-summary').textContent()).toMatch(/Pago\s*R\$\s*80,00/);
      expect(await refund.getByTestId('refund-summary').textContent()).toContain(PAYER.name);

      // R$ 10,00, below the threshold: sent to the provider at once.
      await refundByKeyboard(page, '10,00');
      await expect.poll(() => refund.getByTestId('refund').count(), { message: 'the refund is listed' }).toBe(1);
      expect(await notice(page).textContent()).toContain(`Reembolso de R$\u00a010,00 enviado para ${PAYER.name}`);
      expect(await refund.getByTestId('refund-state').first().textContent()).toMatch(/^(Enviando|Criado|Registrado)$/);

      // R$ 60,00, above R$ 50,00: kept for an owner's approval.
      await refundByKeyboard(page, '60,00');
      await expect
        .poll(() => refund.getByTestId('refund-waiting').textContent(), { message: 'the refund says it waits' })
        .toContain('Reembolso de R$\u00a060,00: aguardando aprovação');
      await expect.poll(() => refund.getByTestId('refund-state').allTextContents()).toContain('Aguardando aprovação');

      // What the BFF holds, and what reached the provider: the first refund only.
      const refunds = await refundsAs(context);
      expect(refunds).toMatchObject({ paid: '80.00', refundable: '10.00' });
      const [sent, pending] = refunds.data;
      expect(sent).toMatchObject({ amount: '10.00', state: expect.stringMatching(/^(Created|Registered)$/) });
      expect(sent!.transactionId).toEqual(expect.any(String));
      expect(pending).toMatchObject({ amount: '60.00', state: 'PendingApproval', transactionId: null });
      made.pendingKey = pending!.idempotencyKey;
      expect((await providerTransactionsOf(provider.provider, sent!.orderId, sent!.createdAt)).map((t) => t.id)).toEqual([
        sent!.transactionId,
      ]);
      expect(await providerTransactionsOf(provider.provider, pending!.orderId, pending!.createdAt)).toEqual([]);

      // The bank completes the first refund at the provider; the console hears of it.
      await provider.provider.sandbox.pix.complete(sent!.transactionId!);
      await expect
        .poll(() => refund.getByTestId('refund-state').allTextContents(), { timeout: 10_000, message: 'the sent refund shows Concluído' })
        .toEqual(['Concluído', 'Aguardando aprovação']);

      // The export in the pt-BR spreadsheet format (the default), read as a spreadsheet reads it.
      const payments = page.getByRole('region', { name: 'Pagamentos recebidos' });
      expect(await payments.getByLabel('Formato da exportação').inputValue()).toBe('csv');
      const [download] = await Promise.all([page.waitForEvent('download'), payments.getByRole('button', { name: 'Exportar CSV' }).click()]);
      const text = await readFile(await download.path(), 'utf8');
      expect(text).toMatch(/\r\n$/);
      const rows = ptBrCsvRecords(text);
      const paid = rows.filter((r) => r['Pedido'] === ORDER_ID);
      expect(paid, text).toHaveLength(1);
      const row = paid[0]!;
      const stored = (await adminCallAs(context, serve.url, 'GET', `/checkouts/${checkoutId}`)).body.checkout;
      expect(row['ID']).toBe(checkoutId);
      expect(row['Situação']).toBe('Pago');
      expect(row['Descrição']).toBe(ORDER_DESCRIPTION);
      expect(text).toContain('"Pedido LOJA-2024; café ""especial"" e pão"');
      expect(centsOfPtBr(row['Valor']!)).toBe(ORDER_CENTS);
      expect(centsOfPtBr(row['Reembolsado']!)).toBe(1_000);
      expect(row['Situação do reembolso']).toBe('Aguardando aprovação');
      expect(row['Pago em']).toBe(saoPauloWallClock(stored.paidAt));
      expect(row['Criado em']).toBe(saoPauloWallClock(stored.createdAt));
      // The provider's fee and the net amount, at up to six decimals, add up to what was paid.
      expect(unitsOfPtBr(row['Valor líquido']!, 6) + unitsOfPtBr(row['Tarifa']!, 6)).toBe(BigInt(ORDER_CENTS) * 10_000n);

      // The page's first question (who is signed in?) was a 401, by design; nothing else went wrong.
      expect(forgiveSignedOut(problems)).toBe(1);
      problems.expectNone();
    },
  );

  it('a viewer, after a wrong password, sees no refund form, and the server refuses its refund (403)', async () => {
    const checkoutId = need(made.checkoutId, 'the paid checkout');
    const context = await newContext();
    const page = await context.newPage();
    await openSignIn(page, serve.url);
    await signInByKeyboard(page, USERS.viewer, 'nao-e-a-senha-certa-123');
    await expect.poll(() => page.locator('bo-sign-in').getByRole('alert').textContent()).toContain('E-mail ou senha incorretos.');
    // Focus is back on the password: typed again, Enter.
    expect(await focusedId(page)).toBe('password');
    await page.keyboard.press('Control+A');
    await page.keyboard.type(PASSWORD);
    await page.keyboard.press('Enter');
    await page.getByRole('navigation', { name: 'Seções do console' }).waitFor();
    expect(await page.getByTestId('signed-in-role').textContent()).toBe('Leitura');

    const { refund } = await openPayment(page, ORDER_ID, 'R$\u00a080,00');
    await expect.poll(() => refund.getByTestId('refund').count()).toBe(2);
    expect(await refund.getByLabel('Valor do reembolso (R$)').count()).toBe(0);
    expect(await refund.getByRole('button', { name: /reembolso/i }).count()).toBe(0);
    expect(await refund.textContent()).toContain('Reembolsos são feitos por operadores e proprietários.');

    // Straight to the API with the viewer's own cookie and the console's Origin: refused by role.
    const refused = await adminCallAs(context, serve.url, 'POST', `/checkouts/${checkoutId}/refunds`, { amount: '1.00' });
    expect(refused).toMatchObject({ status: 403, body: { statusCode: 'Error', error: { code: 'admin_forbidden' } } });
    expect((await refundsAs(context)).data).toHaveLength(2);

    // The page's first question and the wrong password: two 401s, by design.
    expect(forgiveSignedOut(problems)).toBe(2);
    problems.expectNone();
  });

  it(
    'the operator cannot approve; the first owner approves by keyboard on a phone; it completes; no more than paid',
    { timeout: 60_000 },
    async () => {
      const operator = need(made.operator, "the operator's session");
      const pendingKey = need(made.pendingKey, 'the pending refund');
      const forbidden = await adminCallAs(operator, serve.url, 'POST', `/approvals/${encodeURIComponent(pendingKey)}/approve`);
      expect(forbidden).toMatchObject({ status: 403, body: { error: { code: 'admin_forbidden' } } });

      const context = await newContext({ mobile: true });
      const page = await context.newPage();
      await openSignIn(page, serve.url);
      await expectNoAxeViolations(page, 'sign-in (390 px)');
      await signInByKeyboard(page, USERS.owner, PASSWORD);
      await page.getByRole('navigation', { name: 'Seções do console' }).waitFor();
      expect(await page.getByTestId('signed-in-role').textContent()).toBe('Proprietário');

      const approvals = await openSection(page, 'Aprovações', 'Aprovações');
      const approve = approvals
        .getByTestId('approvals-pending')
        .locator('tr', { hasText: USERS.operator })
        .getByRole('button', { name: `Aprovar: Reembolso de R$\u00a060,00 para ${PAYER.name}` });
      await approve.waitFor();
      await expectNoAxeViolations(page, 'approvals (390 px)');
      await approve.focus();
      await page.keyboard.press('Enter');
      await expect.poll(() => focused(page), { message: 'the confirmation has focus' }).toBe('Confirme a aprovação');
      await expectNoAxeViolations(page, 'approval confirmation (390 px)');
      await page.keyboard.press('Tab');
      expect(await focused(page)).toBe('Confirmar aprovação');
      await page.keyboard.press('Enter');
      const decided = approvals.getByTestId('approvals-decided').locator('tr', { hasText: USERS.owner });
      await expect.poll(() => decided.count(), { message: 'the approval is listed as decided' }).toBe(1);
      expect(await decided.textContent()).toContain('R$\u00a060,00');
      expect(await approvals.getByTestId('approvals-pending').count()).toBe(0);
      await expectNoAxeViolations(page, 'approval decided (390 px)');
      await page.setViewportSize({ width: 1280, height: 900 });
      await expectNoAxeViolations(page, 'approval decided (desktop)');

      // Sent to the provider now; the bank completes it there, and the BFF hears of it.
      let approved: Awaited<ReturnType<typeof refundsAs>>['data'][number] | undefined;
      await expect
        .poll(async () => (approved = (await refundsAs(context)).data.find((r) => r.idempotencyKey === pendingKey))?.transactionId, {
          message: 'the approved refund has a transaction at the provider',
        })
        .toEqual(expect.any(String));
      expect((await providerTransactionsOf(provider.provider, approved!.orderId, approved!.createdAt)).map((t) => t.id)).toEqual([
        approved!.transactionId,
      ]);
      await provider.provider.sandbox.pix.complete(approved!.transactionId!);
      await expect
        .poll(async () => (await refundsAs(context)).data.map((r) => r.state), { timeout: 10_000, message: 'both refunds completed' })
        .toEqual(['Completed', 'Completed']);
      expect(await refundsAs(context)).toMatchObject({ paid: '80.00', refunded: '70.00', refundable: '10.00' });
      await expect
        .poll(() => decided.textContent(), { timeout: 10_000, message: "the owner's list shows it completed" })
        .toContain('Concluído');

      // R$ 10,01 is more than the R$ 10,00 left.
      const tooMuch = await adminCallAs(operator, serve.url, 'POST', `/checkouts/${need(made.checkoutId, 'the checkout')}/refunds`, {
        amount: '10.01',
      });
      expect(tooMuch).toMatchObject({ status: 409, body: { error: { code: 'refund_exceeds_paid' } } });

      expect(forgiveSignedOut(problems)).toBe(1);
      problems.expectNone();
    },
  );

  it('the audit trail says who did it: sign-ins (one refused), the refunds, the approval, the CLI', async () => {
    const context = await newContext();
    const page = await context.newPage();
    await openSignIn(page, serve.url);
    await signInByKeyboard(page, USERS.secondOwner, PASSWORD);
    await page.getByRole('navigation', { name: 'Seções do console' }).waitFor();
    const trail = await adminCallAs(context, serve.url, 'GET', '/audit?limit=200');
    expect(trail.status).toBe(200);
    const entries = (
      trail.body.data as { actor: string; role: string | null; action: string; target: string | null; outcome: string; details: any }[]
    )
      .slice()
      .reverse();
    const line = (e: (typeof entries)[number]) => `${e.actor} ${e.action} ${e.outcome}`;
    const checkoutId = need(made.checkoutId, 'the checkout');

    // The CLI's four users, as `cli`.
    expect(entries.filter((e) => e.action === 'user.add').map((e) => `${e.actor} ${e.target} ${e.outcome}`)).toEqual(
      [USERS.owner, USERS.secondOwner, USERS.operator, USERS.viewer].map((email) => `cli ${email} ok`),
    );
    // Every sign-in, the wrong password as the e-mail tried with no role.
    expect(entries.filter((e) => e.action === 'session.sign_in').map((e) => [line(e), e.role, e.details.code])).toEqual([
      [`${USERS.operator} session.sign_in ok`, 'operator', undefined],
      [`${USERS.viewer} session.sign_in refused`, null, 'invalid_credentials'],
      [`${USERS.viewer} session.sign_in ok`, 'viewer', undefined],
      [`${USERS.owner} session.sign_in ok`, 'owner', undefined],
      [`${USERS.secondOwner} session.sign_in ok`, 'owner', undefined],
    ]);
    // The refunds by the operator: sent, kept for approval, then one over what was left refused.
    const refunds = entries.filter((e) => e.action === 'refund.create');
    expect(refunds.map((e) => [line(e), e.role, e.target, e.details.amount])).toEqual([
      [`${USERS.operator} refund.create ok`, 'operator', checkoutId, '10.00'],
      [`${USERS.operator} refund.create pending_approval`, 'operator', checkoutId, '60.00'],
      [`${USERS.operator} refund.create refused`, 'operator', checkoutId, '10.01'],
    ]);
    expect(refunds[2]!.details.code).toBe('refund_exceeds_paid');
    // The approval, by the first owner, of the kept refund.
    expect(entries.filter((e) => e.action.startsWith('approval.')).map((e) => [line(e), e.role, e.target, e.details.amount])).toEqual([
      [`${USERS.owner} approval.approve ok`, 'owner', need(made.pendingKey, 'the pending refund'), '60.00'],
    ]);
    // The 403s (the viewer's refund, the operator's approval), refused by the role check in front of every route.
    const denied = entries.filter((e) => e.action === 'access.denied');
    expect(denied.map((e) => [line(e), e.role, e.details.needed])).toEqual([
      [`${USERS.viewer} access.denied refused`, 'viewer', 'operator'],
      [`${USERS.operator} access.denied refused`, 'operator', 'owner'],
    ]);
    expect(denied[0]!.target).toBe(`/checkouts/${checkoutId}/refunds`);

    // The console's own section says the same in the merchant's words.
    const audit = await openSection(page, 'Auditoria', 'Trilha de auditoria');
    const rows = audit.getByTestId('audit-table').locator('tbody tr');
    const rowsOf = (who: string, ...words: string[]) =>
      words.reduce((found, word) => found.filter({ hasText: word }), rows.filter({ hasText: who }));
    await expect.poll(() => rowsOf(USERS.owner, 'Aprovação', 'Feito').count(), { message: "the owner's approval is shown" }).toBe(1);
    expect(await rowsOf(USERS.operator, 'Reembolso pedido', 'Aguardando aprovação').count()).toBe(1);
    expect(await rowsOf(USERS.operator, 'Reembolso pedido', 'Recusado').count()).toBe(1);
    expect(await rowsOf(USERS.viewer, 'Entrada no console', 'Recusado').count()).toBe(1);

    expect(forgiveSignedOut(problems)).toBe(1);
    problems.expectNone();
  });
});

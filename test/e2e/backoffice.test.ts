/**
 * The merchant's back-office in Chromium against the real process (emulator + BFF): the spec's typical order of use
 * for company payments, up to the sandbox approval and the executed transaction; cancel; a refused token; cash-out.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  ADMIN_TOKEN,
  chooseAccount,
  createPaymentRequest,
  executionState,
  expectNoAxeViolations,
  openBackoffice,
  requestStatus,
  signIn,
  startAppWithAdminToken,
  uploadInvoice,
} from './backoffice-helpers';
import { BrowserProblems, launchChromium, newWatchedContext, type RunningApp } from './helpers';

let app: RunningApp;
let browser: Browser;
let context: BrowserContext;
let page: Page;
const problems = new BrowserProblems();

beforeAll(async () => {
  app = await startAppWithAdminToken();
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

beforeEach(async () => {
  context = await newWatchedContext(browser, problems);
  page = await context.newPage();
  await openBackoffice(page, app);
});

afterEach(async () => {
  await context.close();
  problems.expectNone();
});

describe('back-office page', () => {
  it('refuses a wrong admin token with a clear message and keeps nothing', async () => {
    await signIn(page, 'not-the-admin-token-at-all-123456');
    await expect
      .poll(() => page.getByRole('alert').filter({ hasText: 'Token' }).textContent())
      .toContain('Token de administrador inválido');
    expect(await page.getByRole('heading', { name: 'Entrar no back-office' }).isVisible()).toBe(true);
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
    await expectNoAxeViolations(page, 'refused token');
    // Chromium logs the refused request (401) itself: the expected answer here, not a fault of the page.
    const refused = problems.problems.filter((p) => p.includes('status of 401'));
    expect(refused).toHaveLength(1);
    problems.problems.splice(0, problems.problems.length, ...problems.problems.filter((p) => !refused.includes(p)));
  });

  it('pays an approved receiver: accounts, request, invoice, sandbox approval, executed transaction', async () => {
    await signIn(page);
    await expect.poll(() => page.getByTestId('balance').textContent()).toMatch(/^R\$\s100\.000,00$/);
    expect(await page.evaluate(() => sessionStorage.getItem('pix-backoffice-admin-token'))).toBe(ADMIN_TOKEN);

    const receivers = page.getByRole('region', { name: 'Recebedores' });
    await expect.poll(() => receivers.getByRole('table').textContent()).toContain('Papelaria Central');
    expect(await receivers.getByRole('table').textContent()).not.toContain('Gráfica Aurora');
    await chooseAccount(page, 'Papelaria Central', '56789-0', 'Banco do Brasil');
    expect(await page.getByTestId('pr-target').textContent()).toContain('Banco do Brasil');

    const form = page.locator('bo-payment-request-form');
    await form.getByLabel('Valor (R$)').fill('10,555');
    await form.getByLabel('Descrição').fill('Material de escritório');
    await form.getByRole('button', { name: 'Criar solicitação' }).click();
    expect(await form.locator('#pr-amount-error').textContent()).toContain('até 2 casas decimais');

    await createPaymentRequest(page, '1.234,56', 'Material de escritório — NF 123');
    await expect.poll(() => requestStatus(page)).toBe('Pendente');
    const detail = page.getByRole('region', { name: 'Solicitação de pagamento', exact: true });
    expect(await detail.textContent()).toContain('R$\u00a01.234,56');

    await uploadInvoice(page, 'nota-123.pdf');
    expect(await detail.locator('progress').evaluate((p: HTMLProgressElement) => p.value)).toBe(100);
    expect(await detail.getByText('Envio da nota fiscal: 100%').isVisible()).toBe(true);
    await expectNoAxeViolations(page, 'invoice uploaded');

    await detail.getByRole('button', { name: 'Aprovar (sandbox)' }).click();
    await expect.poll(() => requestStatus(page)).toBe('Aprovado');
    await expect.poll(() => executionState(page), { timeout: 20_000 }).toBe('Concluída');
    const facts = await detail.textContent();
    expect(facts).toContain('Revisor Sandbox');
    expect(facts).not.toContain('Atualizando a cada 2 s');
    expect(await detail.getByRole('button', { name: 'Cancelar solicitação' }).count()).toBe(0);

    const recent = page.getByRole('region', { name: 'Solicitações dos últimos 7 dias' });
    await recent.getByLabel('Situação').selectOption('Approved');
    await expect.poll(() => recent.getByRole('table').textContent()).toContain('Material de escritório — NF 123');
    // The executed payment (and its charge) left the account.
    await expect.poll(() => page.getByTestId('balance').textContent()).toMatch(/^R\$\s98\.7\d\d,\d\d$/);
  });

  it('deletes a document and cancels a Pending request', async () => {
    await signIn(page);
    await chooseAccount(page, 'Transportes Rápido Sul', '13579-2', 'Bradesco');
    await createPaymentRequest(page, '50', 'Frete de março');
    const detail = page.getByRole('region', { name: 'Solicitação de pagamento', exact: true });
    await uploadInvoice(page, 'frete.pdf');
    await detail.getByRole('button', { name: 'Excluir frete.pdf' }).click();
    await detail.getByText('Nenhum documento anexado.').waitFor();

    await detail.getByRole('button', { name: 'Cancelar solicitação' }).click();
    await expect.poll(() => requestStatus(page)).toBe('Cancelado');
    expect(await detail.getByRole('button', { name: 'Aprovar (sandbox)' }).count()).toBe(0);
    await expect.poll(() => page.getByRole('status').textContent()).toContain('Solicitação cancelada.');
    await expectNoAxeViolations(page, 'request cancelled');
  });

  it('makes a PIX cash-out and shows the transaction state', async () => {
    await signIn(page);
    const form = page.locator('bo-cashout-form');
    await form.getByLabel('Tipo de chave').selectOption('EMAIL');
    await form.getByLabel('Chave PIX').fill('fornecedor@exemplo.com.br');
    await form.getByLabel('Nome do destinatário').fill('Maria da Silva');
    await form.getByLabel('CPF do destinatário').fill('529.982.247-25');
    await form.getByLabel('Valor (R$)').fill('10,00');
    await form.getByRole('button', { name: 'Revisar transferência' }).click();
    await form.getByRole('heading', { name: 'Confirme a transferência' }).waitFor();
    await form.getByRole('button', { name: 'Confirmar transferência' }).click();
    const recent = page.getByRole('region', { name: 'Transferências recentes' });
    await expect.poll(() => recent.getByTestId('cashout-state').first().textContent()).toMatch(/^(Criada|Registrada|Concluída)$/);
  });

  it('signs out and forgets the token', async () => {
    await signIn(page);
    await page.getByRole('button', { name: 'Sair' }).click();
    await page.getByRole('heading', { name: 'Entrar no back-office' }).waitFor();
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
  });
});

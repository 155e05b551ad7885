/**
 * The merchant console (`/admin`) in Chromium against the real process (emulator + BFF), signed in as the demo's
 * users: a refused password, the session kept across a reload (no flash of the sign-in) and ended by "Sair" or by the
 * server (back to the sign-in, "Sua sessão expirou"); what each role sees; the spec's typical order of use for company
 * payments, the approval given at the demo's sandbox portal (the provider's stand-in, never the console); a payment
 * request above APPROVAL_ABOVE kept for an owner, who approves it in Aprovações before the portal sees it; cancel;
 * cash-out.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  approveInPortal,
  chooseAccount,
  createPaymentRequest,
  demoUsers,
  executionState,
  expectNoAxeViolations,
  forgiveSignedOut,
  openBackoffice,
  openPortal,
  requestStatus,
  sessionCookieOf,
  signIn,
  signInAs,
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
  await page.getByRole('heading', { name: 'Entrar no console' }).waitFor();
});

afterEach(async () => {
  await context.close();
  // The signed-out page's first question (who is signed in?) is a 401 by design; Chromium logs it.
  forgiveSignedOut(problems);
  problems.expectNone();
});

/** The text of what has focus, through the shadow roots of the console's elements. */
const focusedId = (p: Page) =>
  p.evaluate(() => {
    let active: Element | null = document.activeElement;
    while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
    return active?.id ?? null;
  });

describe('the console', () => {
  it('refuses a wrong password with a clear message, focus back on the password, and keeps nothing', async () => {
    const { operator } = await demoUsers(app);
    expect(await focusedId(page)).toBe('email');
    await signIn(page, { email: operator.email, password: 'not-the-password-at-all' });
    const alert = page.locator('bo-sign-in').getByRole('alert');
    await expect.poll(() => alert.textContent()).toContain('E-mail ou senha incorretos.');
    expect(await focusedId(page)).toBe('password');
    expect(await page.getByLabel('Senha').getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByRole('heading', { name: 'Entrar no console' }).isVisible()).toBe(true);
    expect(await page.evaluate(() => sessionStorage.length + localStorage.length)).toBe(0);
    expect(await sessionCookieOf(context)).toBeUndefined();
    await expectNoAxeViolations(page, 'refused password');
    // The page's first check and the refused sign-in: two 401s, nothing else.
    expect(forgiveSignedOut(problems)).toBe(2);
  });

  it('keeps the session in an HttpOnly cookie only, across a reload, without showing the sign-in meanwhile', async () => {
    await signInAs(page, app, 'operator');
    const { operator } = await demoUsers(app);
    expect(await page.getByTestId('signed-in-as').textContent()).toBe(operator.email);
    expect(await page.getByTestId('signed-in-role').textContent()).toBe('Operador');
    const cookie = await sessionCookieOf(context);
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/' });
    expect(await page.evaluate(() => document.cookie)).toBe('');
    expect(await page.evaluate(() => sessionStorage.length + localStorage.length)).toBe(0);
    // Any sign-in element made from now on is noted: after the reload there must be none.
    await page.addInitScript(() => {
      const define = customElements.define.bind(customElements);
      customElements.define = (name, constructor, options) => {
        if (name === 'bo-sign-in') {
          const connected = constructor.prototype.connectedCallback as (() => void) | undefined;
          constructor.prototype.connectedCallback = function (this: HTMLElement) {
            (window as unknown as { signInShown: boolean }).signInShown = true;
            connected?.call(this);
          };
        }
        define(name, constructor, options);
      };
    });
    await page.reload();
    await page.getByRole('navigation', { name: 'Seções do console' }).waitFor();
    expect(await page.evaluate(() => (window as unknown as { signInShown?: boolean }).signInShown ?? false)).toBe(false);
  });

  it('signs out: the server ends the session, the cookie goes, the sign-in is back', async () => {
    await signInAs(page, app, 'viewer');
    await page.getByRole('button', { name: 'Sair' }).click();
    await page.getByRole('heading', { name: 'Entrar no console' }).waitFor();
    await expect.poll(() => page.getByRole('status').first().textContent()).toContain('Você saiu do console.');
    expect(await sessionCookieOf(context)).toBeUndefined();
    await page.reload();
    await page.getByRole('heading', { name: 'Entrar no console' }).waitFor();
  });

  it('says the session expired when a call is refused for it, and signs in again', async () => {
    await signInAs(page, app, 'operator');
    // The session ends on the server's side (as after 30 idle minutes): the next call gets a 401.
    await context.clearCookies();
    await page.locator('bo-balance').getByRole('button', { name: 'Atualizar' }).click();
    await page.getByRole('heading', { name: 'Entrar no console' }).waitFor();
    expect(await page.locator('bo-sign-in').getByRole('alert').textContent()).toContain('Sua sessão expirou. Entre de novo.');
    await expectNoAxeViolations(page, 'session expired');
    await signInAs(page, app, 'operator');
    expect(await page.locator('bo-sign-in').count()).toBe(0);
  });

  it('does not let a late 401 of the previous session sign the next one out', async () => {
    await signInAs(page, app, 'viewer');
    // A call of the viewer's session that answers only after the next sign-in, refused for want of a session.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let held = 0;
    await page.route('**/api/admin/balance', async (route) => {
      if (++held > 1) return route.continue();
      await released;
      await route.fulfill({
        status: 401,
        contentType: 'application/json',
        body: JSON.stringify({ statusCode: 'Error', error: { code: 'admin_unauthorized', message: 'A session is required.' } }),
      });
    });
    await page.locator('bo-balance').getByRole('button', { name: 'Atualizar' }).click();
    await expect.poll(() => held).toBe(1);
    await page.getByRole('button', { name: 'Sair' }).click();
    await page.getByRole('heading', { name: 'Entrar no console' }).waitFor();
    await signInAs(page, app, 'operator');
    release();
    // The operator's desk stays: the refusal belonged to the session that ended.
    await expect.poll(() => page.getByTestId('balance').textContent()).toMatch(/R\$/);
    expect(await page.getByTestId('signed-in-role').textContent()).toBe('Operador');
    expect(await page.locator('bo-sign-in').count()).toBe(0);
    await page.unroute('**/api/admin/balance');
  });

  it('shows each role its own: a viewer no control that moves money, an operator no owner section', async () => {
    const nav = () => page.getByRole('navigation', { name: 'Seções do console' }).getByRole('link').allTextContents();
    await signInAs(page, app, 'viewer');
    expect(await page.getByTestId('signed-in-role').textContent()).toMatch(/^(Leitura|Visualizador)$/);
    for (const owners of ['Usuários', 'Aprovações', 'Webhooks']) expect(await nav()).not.toContain(owners);
    await expect.poll(() => page.getByTestId('balance').textContent()).toMatch(/R\$/);
    for (const element of ['bo-cashout-form', 'bo-payment-request-form', 'bo-users', 'bo-approvals', 'bo-webhook-endpoints']) {
      expect(await page.locator(element).count(), element).toBe(0);
    }
    await page.getByRole('button', { name: 'Ver contas de Papelaria Central' }).click();
    await page.getByRole('heading', { name: 'Contas de Papelaria Central' }).waitFor();
    expect(await page.getByRole('button', { name: /^Pagar nesta conta/ }).count()).toBe(0);
    await expectNoAxeViolations(page, 'viewer');
    await page.getByRole('button', { name: 'Sair' }).click();

    await signInAs(page, app, 'operator');
    for (const owners of ['Usuários', 'Aprovações', 'Webhooks']) expect(await nav()).not.toContain(owners);
    expect(await page.locator('bo-cashout-form').count()).toBe(1);
    expect(await page.locator('bo-users').count()).toBe(0);
    await page.getByRole('button', { name: 'Sair' }).click();

    await signInAs(page, app, 'owner');
    expect(await page.getByTestId('signed-in-role').textContent()).toBe('Proprietário');
    expect(await nav()).toEqual(expect.arrayContaining(['Pagamentos recebidos', 'Transferências', 'Usuários']));
    expect(await page.locator('bo-cashout-form').count()).toBe(1);
  });

  it('pays an approved receiver: accounts, request, invoice, approval at the portal, executed transaction', async () => {
    await signInAs(page, app, 'operator');
    await expect.poll(() => page.getByTestId('balance').textContent()).toMatch(/^R\$\s100\.000,00$/);

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

    // Below APPROVAL_ABOVE (R$ 1.000,00): the provider has it at once.
    await createPaymentRequest(page, '934,56', 'Material de escritório — NF 123');
    await expect.poll(() => requestStatus(page)).toBe('Pendente');
    const detail = page.getByRole('region', { name: 'Solicitação de pagamento', exact: true });
    expect(await detail.textContent()).toContain('R$\u00a0934,56');
    // The console approves nothing itself: that is the provider's portal.
    expect(await detail.getByRole('button', { name: /Aprovar/ }).count()).toBe(0);

    await uploadInvoice(page, 'nota-123.pdf');
    expect(await detail.locator('progress').evaluate((p: HTMLProgressElement) => p.value)).toBe(100);
    expect(await detail.getByText('Envio da nota fiscal: 100%').isVisible()).toBe(true);
    await expectNoAxeViolations(page, 'invoice uploaded');

    const portal = await openPortal(context, app);
    await approveInPortal(portal, 'Material de escritório — NF 123');
    // The console follows the request every 2 s: the portal's approval shows up there on its own.
    await expect.poll(() => requestStatus(page), { timeout: 10_000 }).toBe('Aprovado');
    await expect.poll(() => executionState(page), { timeout: 20_000 }).toBe('Concluída');
    const facts = await detail.textContent();
    expect(facts).toContain('Revisor Sandbox');
    expect(facts).not.toContain('Atualizando a cada 2 s');
    expect(await detail.getByRole('button', { name: 'Cancelar solicitação' }).count()).toBe(0);

    const recent = page.getByRole('region', { name: 'Solicitações dos últimos 7 dias' });
    await recent.getByLabel('Situação').selectOption('Approved');
    await expect.poll(() => recent.getByRole('table').textContent()).toContain('Material de escritório — NF 123');
    // The executed payment (and its charge) left the account.
    await expect.poll(() => page.getByTestId('balance').textContent()).toMatch(/^R\$\s99\.0\d\d,\d\d$/);
  });

  it('keeps a payment request above APPROVAL_ABOVE for an owner, who approves it before the portal sees it', async () => {
    await signInAs(page, app, 'operator');
    await chooseAccount(page, 'Papelaria Central', '56789-0', 'Banco do Brasil');
    const form = page.locator('bo-payment-request-form');
    await form.getByLabel('Valor (R$)').fill('2.500,00');
    await form.getByLabel('Descrição').fill('Mobiliário — NF 9');
    await form.getByRole('button', { name: 'Criar solicitação' }).click();
    await expect
      .poll(() => page.getByRole('status').first().textContent())
      .toContain('R$\u00a02.500,00 guardada: aguardando a aprovação de outro proprietário');

    const ownerContext = await newWatchedContext(browser, problems);
    try {
      const owner = await ownerContext.newPage();
      await openBackoffice(owner, app);
      await signInAs(owner, app, 'owner');
      // Not at the provider yet: the portal has nothing to approve.
      const portal = await openPortal(ownerContext, app);
      expect(await portal.getByRole('button', { name: 'Aprovar solicitação Mobiliário — NF 9' }).count()).toBe(0);

      await owner.getByRole('navigation', { name: 'Seções do console' }).getByRole('link', { name: 'Aprovações', exact: true }).click();
      const approvals = owner.getByRole('region', { name: 'Aprovações', exact: true });
      const row = approvals.getByTestId('approvals-pending').locator('tr', { hasText: 'Mobiliário — NF 9' });
      await expect.poll(() => row.count()).toBe(1);
      expect(await row.textContent()).toContain('CNPJ');
      await row.getByRole('button', { name: 'Aprovar: Pagamento a empresa de R$\u00a02.500,00 para Papelaria Central' }).click();
      const confirmation = approvals.getByTestId('approval-confirmation');
      expect(await confirmation.textContent()).toContain('Mobiliário — NF 9');
      await approvals.getByRole('button', { name: 'Confirmar aprovação' }).click();
      const decided = approvals.getByTestId('approvals-decided').locator('tr', { hasText: 'Mobiliário — NF 9' });
      await expect.poll(() => decided.textContent()).toContain('Enviada ao provedor');
      await expectNoAxeViolations(owner, 'payment request approved');

      // Now at the provider, Pending: its portal approves it.
      await approveInPortal(portal, 'Mobiliário — NF 9');
    } finally {
      await ownerContext.close();
    }
  });

  it('deletes a document and cancels a Pending request', async () => {
    await signInAs(page, app, 'operator');
    await chooseAccount(page, 'Transportes Rápido Sul', '13579-2', 'Bradesco');
    await createPaymentRequest(page, '50', 'Frete de março');
    const detail = page.getByRole('region', { name: 'Solicitação de pagamento', exact: true });
    await uploadInvoice(page, 'frete.pdf');
    await detail.getByRole('button', { name: 'Excluir frete.pdf' }).click();
    await detail.getByText('Nenhum documento anexado.').waitFor();

    await detail.getByRole('button', { name: 'Cancelar solicitação' }).click();
    await expect.poll(() => requestStatus(page)).toBe('Cancelado');
    await expect.poll(() => page.getByRole('status').first().textContent()).toContain('Solicitação cancelada.');
    await expectNoAxeViolations(page, 'request cancelled');
  });

  it('makes a PIX cash-out and shows the transaction state', async () => {
    await signInAs(page, app, 'operator');
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
    // No bank decision in the console: those buttons are the portal's.
    expect(await recent.getByRole('button', { name: /^Concluir/ }).count()).toBe(0);
  });

  it('keeps the key of a cash-out whose answer was lost, however it is confirmed again, and draws a new one for another', async () => {
    await signInAs(page, app, 'operator');
    const keys: string[] = [];
    const statuses: number[] = [];
    await page.route('**/api/admin/cashouts', async (route) => {
      if (route.request().method() !== 'POST') return route.continue();
      keys.push(route.request().headers()['idempotency-key'] ?? '');
      const answer = await route.fetch();
      statuses.push(answer.status());
      // The first one is made, and its answer lost on the way back.
      if (keys.length === 1) return route.abort('connectionreset');
      return route.fulfill({ response: answer });
    });
    const form = page.locator('bo-cashout-form');
    const send = async (amount: string) => {
      await form.getByLabel('Tipo de chave').selectOption('EMAIL');
      await form.getByLabel('Chave PIX').fill('fornecedor@exemplo.com.br');
      await form.getByLabel('Nome do destinatário').fill('Maria da Silva');
      await form.getByLabel('CPF do destinatário').fill('529.982.247-25');
      await form.getByLabel('Valor (R$)').fill(amount);
      await form.getByRole('button', { name: 'Revisar transferência' }).click();
      await form.getByRole('button', { name: 'Confirmar transferência' }).click();
    };
    await send('7,00');
    await form.getByRole('alert').waitFor();
    // Back to the form and the same cash-out confirmed again: the same key, so the one made is answered.
    await form.getByRole('button', { name: 'Corrigir' }).click();
    await send('7,00');
    await expect.poll(() => statuses).toEqual([201, 200]);
    // Answered: the same cash-out once more is another one, under a new key.
    await form.getByRole('button', { name: 'Revisar transferência' }).waitFor();
    await send('7,00');
    await expect.poll(() => statuses).toEqual([201, 200, 201]);
    expect(keys[1]).toBe(keys[0]);
    expect(keys[2]).not.toBe(keys[0]);
    await page.unroute('**/api/admin/cashouts');
    // The lost answer is a failed load, which the browser logs as it should.
    const lost = problems.problems.filter((p) => p.includes('ERR_CONNECTION_RESET') && p.includes('/api/admin/cashouts'));
    expect(lost).toHaveLength(1);
    problems.problems.splice(0, problems.problems.length, ...problems.problems.filter((p) => !lost.includes(p)));
  });
});

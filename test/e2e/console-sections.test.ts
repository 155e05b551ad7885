/**
 * The console's sections in Chromium against the real process, at desktop size and on a 390 px phone, signed in as
 * named users (made through the admin API with the bearer token): the webhook endpoints (one added with its secret
 * shown once in a dialog and copied, a failing test event, the secret rotated, disabled and enabled again, its
 * deliveries and "Reenviar"); the refund of any amount of a paid payment, typed in pt-BR, checked, confirmed and sent
 * by keyboard, a larger one kept for another owner's approval, approved by keyboard by that owner while the maker's
 * row says another owner must decide; a viewer who sees refunds without a form and no owner sections; the audit trail
 * with "Carregar mais", filters and both CSV downloads; the users (added, refused twice, role changed, disabled and
 * enabled). axe finds nothing in any state (empty, filled, dialog open, error shown).
 */
import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, expectNoAxeViolations } from './backoffice-helpers';
import {
  addUser,
  adminCall,
  expectFitsPhone,
  expectRefusals,
  expectStackedCards,
  focused,
  forgetSignedOutChecks,
  notice,
  openSection,
  pageHolds,
  signInAs,
} from './console-sections-helpers';
import { driveOutcome, element, expectResult, openCheckoutPage, pixCode, placeOrder, useE2E, type ContextOptions } from './helpers';

// Refunds and cash-outs above R$ 20,00 wait for an owner's approval.
const e2e = useE2E({ env: { ADMIN_TOKEN, APPROVAL_ABOVE: '20.00', CHECKOUT_RATE_PER_MINUTE: '0' } });

const DEVICES: [string, ContextOptions, number][] = [
  ['desktop', {}, 1],
  ['a 390 px phone', { mobile: true }, 2],
];

/** Pays a new order of one "café especial" (R$ 39,90) in the shop, through the sandbox panel. */
async function paidOrder(page: Page) {
  const order = await placeOrder(e2e.app);
  await openCheckoutPage(page, e2e.app, order);
  await element(page).getByRole('button', { name: /^Pix/ }).click();
  await pixCode(page);
  await driveOutcome(page, 'Resultado do PIX', 'Complete');
  await expectResult(page, 'Pagamento confirmado');
  return order.orderId;
}

/** Opens the detail of the order's payment from the payments list; answers its refund section. */
async function openRefund(page: Page, orderId: string) {
  const payments = page.getByRole('region', { name: 'Pagamentos recebidos' });
  const row = payments.locator(`tr[data-order="${orderId}"]`);
  await expect.poll(() => row.count(), { timeout: 10_000 }).toBe(1);
  await row.getByRole('button', { name: /^Detalhes/ }).click();
  const detail = page.getByRole('region', { name: `Pagamento do pedido ${orderId}` });
  const refund = detail.getByRole('region', { name: 'Reembolso', exact: true });
  await refund.getByTestId('refund-summary').waitFor();
  return { detail, refund };
}

/** Types `amount` in the refund's field and presses Enter, by keyboard only. */
async function typeRefund(page: Page, amount: string) {
  await page.getByLabel('Valor do reembolso (R$)').focus();
  await page.keyboard.press('Control+A');
  await page.keyboard.type(amount);
  await page.keyboard.press('Enter');
}

describe.each(DEVICES)('the console sections on %s', (device, options, n) => {
  const mobile = !!options.mobile;
  const ownerA = `dona-${n}@loja.test`;
  const ownerB = `socio-${n}@loja.test`;
  const viewer = `leitura-${n}@loja.test`;
  const hookUrl = `http://127.0.0.1:9/webhooks-${n}`;

  beforeAll(async () => {
    await addUser(e2e.app, ownerA, 'owner');
    await addUser(e2e.app, ownerB, 'owner');
    await addUser(e2e.app, viewer, 'viewer');
  });

  it('webhook endpoints: added with its secret shown once, tested, rotated, disabled and enabled', { timeout: 120_000 }, async () => {
    const page = await e2e.newPage({ ...options, clipboard: true });
    await signInAs(page, e2e.app, ownerA);
    const hooks = await openSection(page, 'Webhooks', 'Endpoints de webhook');
    await expect.poll(() => hooks.getByText('Carregando…').count()).toBe(0);
    await expectNoAxeViolations(page, `webhooks listed (${device})`);

    // A bad address is refused on the page, focus on the field.
    await hooks.getByLabel('URL do endpoint').fill('ftp://loja.exemplo/webhooks');
    await hooks.getByRole('button', { name: 'Adicionar endpoint' }).click();
    await expect.poll(() => hooks.locator('#we-url-hint').textContent()).toContain('http ou https');
    await expectNoAxeViolations(page, 'endpoint address refused');

    await hooks.getByLabel('URL do endpoint').fill(hookUrl);
    await hooks.getByRole('checkbox', { name: /Reembolso criado/ }).check();
    await hooks.getByRole('button', { name: 'Adicionar endpoint' }).click();
    const dialog = page.getByRole('dialog', { name: 'Novo segredo do endpoint' });
    await dialog.waitFor();
    const secret = await dialog.getByLabel('Segredo').inputValue();
    expect(secret).toMatch(/^whsec_/);
    expect(await dialog.textContent()).toContain('não será mostrado de novo');
    expect(await focused(page)).toBe('Copiar segredo');
    await expectNoAxeViolations(page, 'secret dialog open');
    await page.keyboard.press('Enter');
    await expect.poll(() => dialog.getByRole('status').textContent()).toContain('copiado');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    await dialog.getByRole('button', { name: 'Fechar' }).click();
    await expect.poll(() => dialog.isVisible()).toBe(false);
    // The dialog hides at close(); its 'close' event, which clears the secret, is a task after it.
    await expect.poll(() => pageHolds(page, secret)).toBe(false);

    const row = hooks.locator('tr', { hasText: hookUrl });
    await expect.poll(() => row.getByTestId('endpoint-state').textContent()).toBe('Ativo');
    expect(await row.textContent()).toContain('Reembolso criado');
    if (mobile) await expectStackedCards(hooks.getByTestId('endpoints-table'));

    // The test event finds nobody listening on port 9: told in Portuguese, never as the socket's error.
    await row.getByRole('button', { name: `Enviar teste a ${hookUrl}` }).click();
    await expect.poll(() => page.getByRole('alert').filter({ hasText: 'não entregue' }).count()).toBe(1);
    const told = await page.getByRole('alert').filter({ hasText: 'não entregue' }).textContent();
    expect(told).toContain('sem resposta');
    expect(told).not.toContain('ECONNREFUSED');
    await expectNoAxeViolations(page, 'test event not delivered');

    // Rotated: the new secret differs, and is gone once the dialog closes (Escape).
    await row.getByRole('button', { name: `Trocar segredo de ${hookUrl}` }).click();
    await expect.poll(() => focused(page)).toBe('Trocar o segredo do endpoint');
    await expectNoAxeViolations(page, 'rotation confirmation');
    await hooks.getByRole('button', { name: 'Trocar segredo', exact: true }).click();
    await dialog.waitFor();
    const rotated = await dialog.getByLabel('Segredo').inputValue();
    expect(rotated).toMatch(/^whsec_/);
    expect(rotated).not.toBe(secret);
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.isVisible()).toBe(false);
    await expect.poll(() => pageHolds(page, rotated)).toBe(false);

    await row.getByRole('button', { name: `Desativar ${hookUrl}` }).click();
    await hooks.getByRole('button', { name: 'Confirmar desativação' }).click();
    await expect.poll(() => row.getByTestId('endpoint-state').textContent()).toBe('Desativado por você');
    await row.getByRole('button', { name: `Reativar ${hookUrl}` }).click();
    await expect.poll(() => row.getByTestId('endpoint-state').textContent()).toBe('Ativo');

    await row.getByRole('button', { name: `Entregas de ${hookUrl}` }).click();
    await expect.poll(() => hooks.getByText('Nenhuma entrega para este endpoint ainda.').count()).toBe(1);
    await expectNoAxeViolations(page, 'no deliveries yet');
    if (mobile) await expectFitsPhone(page);
    forgetSignedOutChecks(e2e.problems);
  });

  it('refunds any amount by keyboard; above the threshold another owner approves it', { timeout: 150_000 }, async () => {
    const orderId = await paidOrder(await e2e.newPage(options));
    const maker = await e2e.newPage(options);
    await signInAs(maker, e2e.app, ownerA);
    const { detail, refund } = await openRefund(maker, orderId);
    expect(await refund.getByTestId('refund-summary').textContent()).toMatch(/Pago\s*R\$\s*39,90/);
    expect(await refund.getByLabel('Valor do reembolso (R$)').inputValue()).toBe('39,90');
    expect(await refund.getByText('Nenhum reembolso deste pagamento.').count()).toBe(1);
    await expectNoAxeViolations(maker, 'refund form');

    // More than was paid: refused on the page, focus stays on the field.
    await typeRefund(maker, '50,00');
    await expect.poll(() => refund.locator('#rf-amount-hint').textContent()).toContain('passa do disponível');
    await expectNoAxeViolations(maker, 'refund amount refused');

    // R$ 10,00: confirmed by keyboard (Tab to the button, Enter), sent at once.
    await typeRefund(maker, '10,00');
    await refund.getByTestId('refund-confirmation').waitFor();
    await expect.poll(() => focused(maker)).toBe('Confirme o reembolso');
    expect(await refund.getByTestId('refund-confirmation').textContent()).toMatch(/Valor\s*R\$\s*10,00/);
    await expectNoAxeViolations(maker, 'refund confirmation');
    await maker.keyboard.press('Tab');
    expect(await focused(maker)).toBe('Confirmar reembolso');
    await maker.keyboard.press('Enter');
    await expect.poll(() => refund.getByTestId('refund').count()).toBe(1);
    await expect.poll(() => focused(maker)).toBe('Reembolsos deste pagamento');
    expect(await notice(maker).textContent()).toContain('Reembolso de R$\u00a010,00 enviado');
    await expect.poll(() => refund.getByLabel('Valor do reembolso (R$)').inputValue()).toBe('29,90');

    // R$ 25,00: above the threshold, it waits for another owner (Space on the button this time).
    await typeRefund(maker, '25,00');
    await expect.poll(() => focused(maker)).toBe('Confirme o reembolso');
    await maker.keyboard.press('Tab');
    await maker.keyboard.press('Space');
    await expect.poll(() => refund.getByTestId('refund-waiting').textContent()).toContain('aguardando aprovação de outro proprietário');
    await expect.poll(() => refund.getByTestId('refund-state').allTextContents()).toContain('Aguardando aprovação');
    if (mobile) await expectStackedCards(refund.getByTestId('refunds'));
    await expectNoAxeViolations(maker, 'refund waiting for approval');

    // The maker's own row: no buttons, another owner must decide.
    const mine = await openSection(maker, 'Aprovações', 'Aprovações');
    const pendingRow = mine.getByTestId('approvals-pending').locator('tr', { hasText: ownerA }).filter({ hasText: 'R$\u00a025,00' });
    await expect.poll(() => pendingRow.getByTestId('own-approval').count()).toBe(1);
    expect(await pendingRow.getByRole('button').count()).toBe(0);
    await expectNoAxeViolations(maker, 'own approval');

    // The other owner approves it by keyboard: Enter on "Aprovar", Tab, Space on the confirmation.
    const checker = await e2e.newPage(options);
    await signInAs(checker, e2e.app, ownerB);
    const approvals = await openSection(checker, 'Aprovações', 'Aprovações');
    const approve = approvals
      .getByTestId('approvals-pending')
      .locator('tr', { hasText: ownerA })
      .getByRole('button', { name: /^Aprovar: Reembolso de R\$\s25,00/ });
    await approve.focus();
    await checker.keyboard.press('Enter');
    await expect.poll(() => focused(checker)).toBe('Confirme a aprovação');
    await expectNoAxeViolations(checker, 'approval confirmation');
    if (mobile) await expectStackedCards(approvals.getByTestId('approvals-pending'));
    await checker.keyboard.press('Tab');
    expect(await focused(checker)).toBe('Confirmar aprovação');
    await checker.keyboard.press('Space');
    const decided = approvals.getByTestId('approvals-decided').locator('tr', { hasText: ownerB });
    await expect.poll(() => decided.count()).toBe(1);
    expect(await decided.textContent()).toContain('R$\u00a025,00');
    expect(await approvals.getByTestId('approvals-pending').locator('tr', { hasText: ownerA }).count()).toBe(0);
    await expectNoAxeViolations(checker, 'approval decided');
    if (mobile) await expectFitsPhone(checker);

    // The maker's payment shows the refund moving on, decided by the other owner.
    await detail.getByRole('button', { name: 'Atualizar', exact: true }).click();
    await expect.poll(() => refund.getByTestId('refund-state').allTextContents()).not.toContain('Aguardando aprovação');
    expect(await refund.getByTestId('refunds').textContent()).toContain(`aprovado por ${ownerB}`);

    // A viewer sees the refunds but no form, and none of the owners' sections.
    const reader = await e2e.newPage(options);
    await signInAs(reader, e2e.app, viewer);
    const nav = reader.getByRole('navigation', { name: 'Seções do console' });
    for (const owners of ['Aprovações', 'Usuários', 'Webhooks']) expect(await nav.getByRole('link', { name: owners }).count()).toBe(0);
    expect(await nav.getByRole('link', { name: 'Auditoria' }).count()).toBe(1);
    const seen = await openRefund(reader, orderId);
    await expect.poll(() => seen.refund.getByTestId('refund').count()).toBe(2);
    expect(await seen.refund.getByLabel('Valor do reembolso (R$)').count()).toBe(0);
    await expectNoAxeViolations(reader, 'refunds seen by a viewer');

    // The endpoint of the first test wants refund.created: it got these two (nobody listens: pending or failed).
    await maker.getByRole('navigation', { name: 'Seções do console' }).getByRole('link', { name: 'Webhooks' }).click();
    const hooks = maker.getByRole('region', { name: 'Endpoints de webhook' });
    await hooks
      .locator('tr', { hasText: hookUrl })
      .getByRole('button', { name: `Entregas de ${hookUrl}` })
      .click();
    const deliveries = hooks.getByTestId('deliveries');
    await expect.poll(() => deliveries.locator('tbody tr').count(), { timeout: 15_000 }).toBe(2);
    expect(await deliveries.textContent()).toContain('Reembolso criado');
    await deliveries
      .getByRole('button', { name: /^Reenviar/ })
      .first()
      .click();
    await expect.poll(() => notice(maker).textContent()).toContain('reenviado');
    await expectNoAxeViolations(maker, 'deliveries listed');
    forgetSignedOutChecks(e2e.problems);
  });

  it('audit trail: more, filters, both CSVs; users: added, refused, changed, disabled, enabled', { timeout: 150_000 }, async () => {
    // 55 refused changes of users that do not exist, by the bearer token: more than a page of the trail.
    for (let i = 0; i < 55; i++)
      expect((await adminCall(e2e.app, 'PATCH', `/users/usr_missing${n}x${i}`, { disabled: true })).status).toBe(404);
    const page = await e2e.newPage(options);
    await signInAs(page, e2e.app, ownerA);
    const audit = await openSection(page, 'Auditoria', 'Trilha de auditoria');
    const rows = audit.getByTestId('audit-table').locator('tbody tr');
    await expect.poll(() => rows.count()).toBe(50);
    await audit.getByRole('button', { name: 'Carregar mais' }).click();
    await expect.poll(() => rows.count()).toBeGreaterThan(50);
    await expectNoAxeViolations(page, 'audit trail, two pages');

    await audit.getByLabel('Quem (e-mail)').fill('api-token');
    await audit.getByLabel('Ação').selectOption('user');
    await audit.getByLabel('Resultado').selectOption('refused');
    await audit.getByRole('button', { name: 'Filtrar' }).click();
    await expect
      .poll(async () => (await rows.allTextContents()).every((t) => t.includes('Recusado') && t.includes('api-token')))
      .toBe(true);
    if (mobile) await expectStackedCards(audit.getByTestId('audit-table'));
    const sheet = audit.getByRole('link', { name: 'Planilha (CSV pt-BR)' });
    const href = (await sheet.getAttribute('href'))!;
    for (const part of ['format=csv&', 'actor=api-token', 'action=user', 'outcome=refused']) expect(href).toContain(part);
    const [ptBr] = await Promise.all([page.waitForEvent('download'), sheet.click()]);
    const ptBrText = await readFile(await ptBr.path(), 'utf8');
    expect(ptBrText).toContain('Recusado');
    expect(ptBrText).toContain(`usr_missing${n}x54`);
    const [iso] = await Promise.all([page.waitForEvent('download'), audit.getByRole('link', { name: 'CSV técnico (ISO)' }).click()]);
    expect(await readFile(await iso.path(), 'utf8')).toContain('refused');
    await expectNoAxeViolations(page, 'audit trail filtered');
    await audit.getByLabel('Quem (e-mail)').fill('ninguem@nada.test');
    await audit.getByRole('button', { name: 'Filtrar' }).click();
    await expect.poll(() => audit.getByText('Nada na trilha com esses filtros.').count()).toBe(1);
    await expectNoAxeViolations(page, 'audit trail empty');
    if (mobile) await expectFitsPhone(page);

    const users = await openSection(page, 'Usuários', 'Usuários');
    const table = users.getByTestId('users-table');
    await expect.poll(() => table.locator('tr', { hasText: ownerA }).textContent()).toContain('(você)');
    const fresh = `novo-${n}@loja.test`;
    await users.getByLabel('E-mail').fill(fresh);
    await users.getByLabel('Papel', { exact: true }).selectOption('operator');
    await users.getByLabel('Senha inicial').fill('curta');
    await users.getByRole('button', { name: 'Adicionar usuário' }).click();
    await expect.poll(() => users.locator('#us-password-hint').textContent()).toContain('pelo menos 12');
    expect(await users.getByLabel('Senha inicial').getAttribute('autocomplete')).toBe('new-password');
    await expectNoAxeViolations(page, 'user password refused');
    await users.getByLabel('Senha inicial').fill('uma-senha-com-mais-de-12');
    await users.getByRole('button', { name: 'Adicionar usuário' }).click();
    const added = table.locator('tr', { hasText: fresh });
    await expect.poll(() => added.textContent()).toContain('Operador');
    // The same e-mail again: the BFF refuses it (409 user_exists), said by the form.
    await users.getByLabel('E-mail').fill(fresh);
    await users.getByLabel('Senha inicial').fill('uma-senha-com-mais-de-12');
    await users.getByRole('button', { name: 'Adicionar usuário' }).click();
    await expect.poll(() => users.getByRole('alert').textContent()).toContain('Já existe um usuário com este e-mail');
    await expectNoAxeViolations(page, 'user exists');

    await added.getByRole('button', { name: `Alterar papel de ${fresh}` }).click();
    await expect.poll(() => focused(page)).toBe(`Alterar o papel ${fresh}`);
    await users.getByLabel(/^Novo papel/).selectOption('viewer');
    await expectNoAxeViolations(page, 'role change confirmation');
    await users.getByRole('button', { name: 'Confirmar papel' }).click();
    await expect.poll(() => added.textContent()).toContain('Leitura');
    await added.getByRole('button', { name: `Desativar ${fresh}` }).click();
    await users.getByRole('button', { name: 'Confirmar desativação' }).click();
    await expect.poll(() => added.textContent()).toContain('Desativado');
    await added.getByRole('button', { name: `Reativar ${fresh}` }).click();
    await users.getByRole('button', { name: 'Confirmar reativação' }).click();
    await expect.poll(() => added.textContent()).toContain('Ativo');
    if (mobile) {
      await expectStackedCards(table);
      await expectFitsPhone(page);
    }
    await expectNoAxeViolations(page, 'users changed');
    expectRefusals(e2e.problems, 409, 1);
    forgetSignedOutChecks(e2e.problems);
  });
});

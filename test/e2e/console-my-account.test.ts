/**
 * "Minha conta" in Chromium against the real process: a viewer signed in on two browsers sees both sessions (this one
 * marked), ends the other with "Encerrar" (that browser is signed out at its next call), is refused a password change
 * with a wrong current password, then changes it and stays signed in. axe finds nothing in any state.
 */
import { describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, expectNoAxeViolations } from './backoffice-helpers';
import { addUser, expectRefusals, forgetSignedOutChecks, openSection, signInAs } from './console-sections-helpers';
import { useE2E } from './helpers';

const e2e = useE2E({ env: { ADMIN_TOKEN } });

describe('Minha conta', () => {
  it('lists the sessions, ends the other one, and changes the password', { timeout: 120_000 }, async () => {
    const email = 'minha-conta@loja.test';
    await addUser(e2e.app, email, 'viewer');
    const other = await e2e.newPage({});
    await signInAs(other, e2e.app, email);
    const page = await e2e.newPage({});
    await signInAs(page, e2e.app, email);

    const account = await openSection(page, 'Minha conta', 'Minha conta');
    const rows = account.getByTestId('sessions-table').locator('tbody tr');
    await expect.poll(() => rows.count(), { timeout: 10_000 }).toBe(2);
    expect(await account.locator('tr[aria-current="true"]').textContent()).toContain('esta sessão');
    await expectNoAxeViolations(page, 'sessions listed');

    await account.getByRole('button', { name: /^Encerrar a sessão de/ }).click();
    await expect.poll(() => rows.count(), { timeout: 10_000 }).toBe(1);
    expect(await account.getByRole('button', { name: 'Encerrar as outras' }).isDisabled()).toBe(true);
    await other.reload();
    await other.locator('bo-sign-in').waitFor();

    await account.getByLabel('Senha atual').fill('não é a senha atual!');
    await account.getByLabel('Nova senha').fill('uma nova senha bem longa');
    await account.getByRole('button', { name: 'Alterar a senha' }).click();
    await expect.poll(() => account.getByTestId('password-error').textContent()).toContain('A senha atual está incorreta.');
    await expectNoAxeViolations(page, 'wrong current password');

    await account.getByLabel('Senha atual').fill('senha-de-teste-bem-longa-42');
    await account.getByLabel('Nova senha').fill('uma nova senha bem longa');
    await account.getByRole('button', { name: 'Alterar a senha' }).click();
    await expect.poll(() => account.getByTestId('password-error').count()).toBe(0);
    await expect.poll(() => page.locator('bo-app .notice[role="status"]').textContent()).toContain('Senha alterada');
    await page.reload();
    await page.getByRole('navigation', { name: 'Seções do console' }).waitFor();
    await expectNoAxeViolations(page, 'password changed');
    forgetSignedOutChecks(e2e.problems);
    expectRefusals(e2e.problems, 401, 1);
  });
});

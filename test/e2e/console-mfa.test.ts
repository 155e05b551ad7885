/**
 * The console's second factor in Chromium against the demo process in this one (its emulator, a ManualClock), under
 * MFA_REQUIRED=operator and APPROVAL_ABOVE=1.00. An owner must enrol at its first sign-in: it sets up the
 * authenticator app (codes computed here from the secret the page shows) and a passkey (Chromium's virtual
 * authenticator, through the DevTools protocol's WebAuthn domain), signs out, signs in with a TOTP code, then with the
 * passkey, and a recovery code opens the console once only. An operator that has not enrolled sees the enrolment
 * only, and the API refuses it everything else. A refund above the limit, 6 minutes after the last proof, asks for
 * the factor again in a dialog and goes on once it is given. axe finds nothing in any state.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { Secret, TOTP } from 'otpauth';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startMovementServer } from '../server/backoffice/movements';
import { ADMIN_TOKEN, expectNoAxeViolations } from './backoffice-helpers';
import { PASSWORD } from './console-sections-helpers';
import { BrowserProblems, launchChromium, newWatchedContext } from './helpers';

const MINUTE = 60_000;
const OWNER = 'dona-mfa@loja.test';

let movement: Awaited<ReturnType<typeof startMovementServer>>;
let browser: Browser;
/** The console's address on `localhost`: WebAuthn takes no IP address as its relying party. */
let base: string;
const problems = new BrowserProblems();
const contexts: BrowserContext[] = [];
/** What the owner's test hands on to the refund's. */
const owner: { page?: Page; secret?: string } = {};

beforeAll(async () => {
  movement = await startMovementServer(ADMIN_TOKEN, { MFA_REQUIRED: 'operator', APPROVAL_ABOVE: '1.00' });
  base = movement.server.url.replace('127.0.0.1', 'localhost');
  browser = await launchChromium();
}, 60_000);
afterEach(() => {
  // Chromium logs every 4xx the page is answered; those of the admin API are the refusals this file provokes.
  const refusals = problems.problems.filter((p) => /status of 40[13]/.test(p) && p.includes('/api/admin/'));
  problems.problems.splice(0, problems.problems.length, ...problems.problems.filter((p) => !refusals.includes(p)));
  problems.expectNone();
});
afterAll(async () => {
  await Promise.all(contexts.map((context) => context.close()));
  await browser?.close();
  await movement?.server.close();
});

/** The TOTP code of `secret` at the server's (manual) clock. */
const codeOf = (secret: string) => new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: movement.clock.now().getTime() });

/** A page of a new context; with `authenticator`, Chromium's virtual passkey authenticator is plugged in. */
async function newPage({ authenticator = false } = {}): Promise<Page> {
  const context = await newWatchedContext(browser, problems, { clipboard: true });
  contexts.push(context);
  const page = await context.newPage();
  if (authenticator) {
    const cdp = await context.newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true },
    });
  }
  return page;
}

async function addUser(email: string, role: 'owner' | 'operator') {
  expect((await movement.admin('POST', '/users', { email, role, password: PASSWORD })).status).toBe(201);
}

/** The sign-in's first step: e-mail and password. */
async function password(page: Page, email: string) {
  await page.goto(`${base}/admin`);
  const form = page.locator('bo-sign-in');
  await form.getByLabel('E-mail', { exact: true }).fill(email);
  await form.getByLabel('Senha', { exact: true }).fill(PASSWORD);
  await form.getByRole('button', { name: 'Entrar' }).click();
}

const desk = (page: Page) => page.getByRole('navigation', { name: 'Seções do console' });

async function signOut(page: Page) {
  await page.getByRole('button', { name: 'Sair' }).click();
  await page.locator('bo-sign-in').getByLabel('E-mail', { exact: true }).waitFor();
}

/** The second step with a code; resolves once the desk shows. */
async function secondStepWithCode(page: Page, code: string) {
  await page.getByLabel('Código', { exact: true }).fill(code);
  await page.getByRole('button', { name: 'Confirmar' }).click();
}

describe('the second factor in the console', () => {
  it('enrols an owner in TOTP and a passkey, and signs in with each; a recovery code opens once', { timeout: 120_000 }, async () => {
    await addUser(OWNER, 'owner');
    const page = await newPage({ authenticator: true });
    await password(page, OWNER);
    await page.getByRole('heading', { name: 'Configure o segundo fator' }).waitFor();
    expect(await desk(page).count()).toBe(0);
    await expectNoAxeViolations(page, 'forced enrolment');

    await page.getByRole('button', { name: 'Configurar aplicativo autenticador' }).click();
    await page.getByRole('img', { name: 'Código QR para o aplicativo autenticador' }).waitFor();
    const secret = (await page.getByTestId('totp-secret').textContent())!.trim();
    await expectNoAxeViolations(page, 'TOTP set-up');
    await page.getByLabel('Código de 6 dígitos do aplicativo').fill(codeOf(secret) === '000000' ? '111111' : '000000');
    await page.getByRole('button', { name: 'Ativar' }).click();
    await expect.poll(() => page.locator('#totp-error').textContent()).toContain('Código errado');
    await page.getByLabel('Código de 6 dígitos do aplicativo').fill(codeOf(secret));
    await page.getByRole('button', { name: 'Ativar' }).click();
    const codes = page.getByTestId('recovery-codes').locator('li');
    await expect.poll(() => codes.count()).toBe(10);
    const recoveryCodes = (await codes.allTextContents()).map((c) => c.trim());
    expect(await page.getByTestId('recovery-codes').textContent()).toContain('Guarde agora');
    await expectNoAxeViolations(page, 'recovery codes shown');
    await page.getByRole('button', { name: 'Copiar códigos' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(recoveryCodes.join('\n'));
    await page.getByRole('button', { name: 'Guardei os códigos' }).click();
    await desk(page).waitFor();

    await desk(page).getByRole('link', { name: 'Minha conta', exact: true }).click();
    await page.getByRole('button', { name: 'Adicionar chave de acesso' }).click();
    await expect.poll(() => page.getByTestId('passkeys').locator('li').count()).toBe(1);
    await expectNoAxeViolations(page, 'a passkey added');

    await signOut(page);
    // The enrolment's code spent its time step: the next code is the next step's.
    movement.clock.advance(30_000);
    await password(page, OWNER);
    await secondStepWithCode(page, codeOf(secret));
    await desk(page).waitFor();

    await signOut(page);
    await password(page, OWNER);
    await page.getByRole('button', { name: 'Entrar com chave de acesso' }).click();
    await desk(page).waitFor();

    await signOut(page);
    await password(page, OWNER);
    await secondStepWithCode(page, recoveryCodes[0]!);
    await desk(page).waitFor();
    await signOut(page);
    await password(page, OWNER);
    await secondStepWithCode(page, recoveryCodes[0]!);
    await expect.poll(() => page.locator('bo-sign-in').getByRole('alert').textContent()).toContain('Código errado, já usado ou expirado.');
    await expectNoAxeViolations(page, 'a spent recovery code');
    await secondStepWithCode(page, recoveryCodes[1]!);
    await desk(page).waitFor();
    Object.assign(owner, { page, secret });
  });

  it('keeps an operator that has not enrolled to the enrolment', { timeout: 60_000 }, async () => {
    const email = 'operador-mfa@loja.test';
    await addUser(email, 'operator');
    const page = await newPage();
    await password(page, email);
    await page.getByRole('heading', { name: 'Configure o segundo fator' }).waitFor();
    expect(await desk(page).count()).toBe(0);
    const refused = await page.evaluate(async () => {
      const answer = await fetch('/api/admin/checkouts', { headers: { accept: 'application/json' } });
      return { status: answer.status, code: ((await answer.json()) as { error: { code: string } }).error.code };
    });
    expect(refused).toEqual({ status: 403, code: 'mfa_enrolment_required' });
    await page.reload();
    await page.getByRole('heading', { name: 'Configure o segundo fator' }).waitFor();
    expect(await desk(page).count()).toBe(0);
  });

  it('asks for the factor again before a refund above the limit once the last proof is 6 minutes old', { timeout: 60_000 }, async () => {
    const page = owner.page!;
    const checkout = await movement.paidCheckout();
    movement.clock.advance(6 * MINUTE);
    await page.reload();
    await desk(page).waitFor();
    const payments = page.getByRole('region', { name: 'Pagamentos recebidos' });
    const row = payments.locator(`tr[data-order="${checkout.orderId}"]`);
    await expect.poll(() => row.count(), { timeout: 10_000 }).toBe(1);
    await row.getByRole('button', { name: /^Detalhes/ }).click();
    const refund = page.getByRole('region', { name: 'Reembolso', exact: true });
    await refund.getByTestId('refund-summary').waitFor();
    await page.getByLabel('Valor do reembolso (R$)').fill('2,00');
    await page.getByLabel('Valor do reembolso (R$)').press('Enter');
    await page.getByRole('button', { name: 'Confirmar reembolso' }).click();

    const dialog = page.getByRole('dialog', { name: 'Confirme que é você' });
    await dialog.waitFor();
    await expectNoAxeViolations(page, 'step-up asked');
    await dialog.getByLabel('Código do aplicativo ou de recuperação').fill(codeOf(owner.secret!));
    await dialog.getByRole('button', { name: 'Confirmar' }).click();
    await expect.poll(() => dialog.isVisible()).toBe(false);
    await expect.poll(() => refund.getByTestId('refund-state').allTextContents(), { timeout: 10_000 }).toContain('Aguardando aprovação');
    const trail = await movement.auditOf('access.step_up');
    expect(trail[0]).toMatchObject({ actor: OWNER, outcome: 'refused' });
  });
});

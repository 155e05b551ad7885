/**
 * Steps on the console (`/admin`) and on the demo's sandbox portal (`/sandbox-portal.html`), the demo's users they sign
 * in as (DATA_DIR/demo-users.txt, which the startup lines name), and the tiny invoice PDF the tests upload.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';
import { parseDemoUsers } from '../../demo/demo-users';
import { startApp, type BrowserProblems, type RunningApp } from './helpers';

/** At least 24 characters, as the configuration requires. */
export const ADMIN_TOKEN = 'e2e-backoffice-admin-token-0123456789';

/** The real process with a known admin token (startApp passes our environment on to it). */
export async function startAppWithAdminToken(): Promise<RunningApp> {
  process.env.ADMIN_TOKEN = ADMIN_TOKEN;
  try {
    return await startApp();
  } finally {
    delete process.env.ADMIN_TOKEN;
  }
}

/** A one-page PDF with a correct cross-reference table, small enough to read in a test failure. */
export function tinyPdf(text = 'Nota fiscal de teste'): Buffer {
  const stream = `BT /F1 18 Tf 72 720 Td (${text}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let body = '%PDF-1.4\n';
  const offsets = objects.map((object, i) => {
    const offset = body.length;
    body += `${i + 1} 0 obj\n${object}\nendobj\n`;
    return offset;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  body += offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('');
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

export type DemoRole = 'owner' | 'operator' | 'viewer';

/**
 * The demo's users of a running app, by role (the first of each): read from the file the startup lines name. The
 * demo made them at its first start, with random passwords.
 */
export async function demoUsers(app: RunningApp): Promise<Record<DemoRole, { email: string; password: string }>> {
  let file: string | undefined;
  await expect.poll(() => (file = /users\s+file (\S+demo-users\.txt)/.exec(app.output())?.[1])).toBeDefined();
  const users = parseDemoUsers(readFileSync(file!, 'utf8'));
  const of = (role: DemoRole) => {
    const user = users.find((u) => u.role === role);
    if (!user) throw new Error(`no demo ${role} in ${file}`);
    return { email: user.email, password: user.password };
  };
  return { owner: of('owner'), operator: of('operator'), viewer: of('viewer') };
}

export async function openBackoffice(page: Page, app: RunningApp): Promise<void> {
  await page.goto(`${app.url}/admin`);
}

/** Fills the console's sign-in and presses its button. */
export async function signIn(page: Page, user: { email: string; password: string }): Promise<void> {
  // Within the sign-in form: until a sign-out's answer comes, the desk (its audit filter "Quem (e-mail)") is still there.
  const form = page.locator('bo-sign-in');
  await form.getByLabel('E-mail', { exact: true }).fill(user.email);
  await form.getByLabel('Senha', { exact: true }).fill(user.password);
  await form.getByRole('button', { name: 'Entrar', exact: true }).click();
}

/** Signs in as the demo user of `role` and waits for the desk. */
export async function signInAs(page: Page, app: RunningApp, role: DemoRole): Promise<void> {
  await signIn(page, (await demoUsers(app))[role]);
  await page.getByRole('navigation', { name: 'Seções do console' }).waitFor();
}

/** The session cookie of the console in `context`, if any. */
export const sessionCookieOf = async (context: BrowserContext) => (await context.cookies()).find((c) => c.name === 'pix_admin');

/**
 * Takes out of `problems` the browser's own log lines of the 401s a signed-out console meets by design (its first
 * `GET /api/admin/session`, a refused sign-in, a call after the session ended), so the other problems still count;
 * resolves with how many there were.
 */
export function forgiveSignedOut(problems: BrowserProblems): number {
  const expected = problems.problems.filter((p) => p.includes('status of 401') && p.includes('/api/admin/'));
  problems.problems.splice(0, problems.problems.length, ...problems.problems.filter((p) => !expected.includes(p)));
  return expected.length;
}

/** Opens the demo's sandbox portal in a page of the console's context (the session cookie opens it). */
export async function openPortal(context: BrowserContext, app: RunningApp): Promise<Page> {
  const portal = await context.newPage();
  await portal.goto(`${app.url}/sandbox-portal.html`);
  await portal.getByRole('heading', { name: 'Cadastrar recebedor' }).waitFor();
  return portal;
}

/** In the portal: approves the pending payment request `description`, as the provider's reviewer. */
export async function approveInPortal(portal: Page, description: string): Promise<void> {
  // The portal reads the pending requests every few seconds: the one just made shows up on its own.
  const approve = portal.getByRole('button', { name: `Aprovar solicitação ${description}` });
  await expect.poll(() => approve.count(), { timeout: 10_000 }).toBe(1);
  await approve.click();
  await expect.poll(() => portal.locator('#portal-result').textContent()).toContain(`“${description}” aprovada`);
}

/** Opens the receiver's accounts and picks the account with that number for a payment. */
export async function chooseAccount(page: Page, receiver: string, accountNumber: string, bank: string): Promise<void> {
  await page.getByRole('button', { name: `Ver contas de ${receiver}` }).click();
  await page.getByRole('heading', { name: `Contas de ${receiver}` }).waitFor();
  await page.getByRole('button', { name: `Pagar nesta conta: ${accountNumber} (${bank})` }).click();
}

export async function createPaymentRequest(page: Page, amount: string, description: string): Promise<void> {
  const form = page.locator('bo-payment-request-form');
  await form.getByLabel('Valor (R$)').fill(amount);
  await form.getByLabel('Descrição').fill(description);
  await form.getByRole('button', { name: 'Criar solicitação' }).click();
  await page.getByRole('heading', { name: 'Solicitação de pagamento', exact: true }).waitFor();
}

/** The approval status shown in the detail, in pt-BR. */
export const requestStatus = (page: Page) => page.getByTestId('pr-status').textContent();
export const executionState = (page: Page) => page.getByTestId('pr-execution').textContent();

export async function uploadInvoice(page: Page, fileName: string): Promise<void> {
  await page.getByLabel('Arquivo PDF (até 10 MiB)').setInputFiles({ name: fileName, mimeType: 'application/pdf', buffer: tinyPdf() });
  await page.getByRole('button', { name: 'Enviar nota fiscal' }).click();
  await expect.poll(() => page.getByRole('table', { name: 'Documentos da solicitação' }).textContent()).toContain(fileName);
}

const axeSource = (() => {
  try {
    return readFileSync(fileURLToPath(new URL('../../node_modules/axe-core/axe.min.js', import.meta.url)), 'utf8');
  } catch {
    return undefined;
  }
})();

/**
 * The axe-core violations of the whole back-office page, its elements' shadow trees included, as "rule: target"
 * lines; undefined when axe-core is not installed. Evaluated through the DevTools protocol, under the page's CSP.
 */
export async function pageAxeViolations(page: Page): Promise<string[] | undefined> {
  if (!axeSource) return undefined;
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  return page.evaluate(async () => {
    const axe = (
      window as unknown as { axe: { run(context: Document): Promise<{ violations: { id: string; nodes: { target: unknown }[] }[] }> } }
    ).axe;
    const { violations } = await axe.run(document);
    return violations.flatMap((v) => v.nodes.map((node) => `${v.id}: ${JSON.stringify(node.target)}`));
  });
}

/** Fails with the violations when axe finds any (skipped without axe-core). */
export async function expectNoAxeViolations(page: Page, step: string): Promise<void> {
  const violations = await pageAxeViolations(page);
  if (violations) expect(violations, `axe violations: ${step}`).toEqual([]);
}

/** A valid CNPJ from 12 digits (its two check digits computed). */
export function cnpjFrom(base12: string): string {
  const digits = base12.split('').map(Number);
  const check = (weights: number[]) => {
    const sum = weights.reduce((total, weight, i) => total + weight * digits[i]!, 0);
    const rest = sum % 11;
    return rest < 2 ? 0 : 11 - rest;
  };
  digits.push(check([5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]));
  digits.push(check([6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]));
  return digits.join('');
}

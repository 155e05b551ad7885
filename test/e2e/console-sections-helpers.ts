/**
 * Steps of the console's sections test (console-sections.test.ts): users made through the admin API with the bearer
 * token, the sign-in at /admin, the section links, what has focus through the shadow roots, a search of the whole
 * composed page for a text (the webhook secret that must be gone), the layout checks at 390 px, and the browser's
 * own log lines of the refusals a test provokes on purpose.
 */
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { ADMIN_TOKEN } from './backoffice-helpers';
import type { BrowserProblems, RunningApp } from './helpers';

/** At least 12 characters, as the BFF requires. */
export const PASSWORD = 'senha-de-teste-bem-longa-42';

/** A call to the admin API as the bearer token (an owner), answering status and body. */
export async function adminCall(app: RunningApp, method: string, path: string, body?: unknown) {
  const response = await fetch(`${app.url}/api/admin${path}`, {
    method,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  return { status: response.status, body: (await response.json().catch(() => null)) as Record<string, unknown> | null };
}

export async function addUser(app: RunningApp, email: string, role: 'viewer' | 'operator' | 'owner') {
  const { status, body } = await adminCall(app, 'POST', '/users', { email, role, password: PASSWORD });
  expect(status, JSON.stringify(body)).toBe(201);
}

/** Opens the console and signs in with e-mail and password; resolves once the desk's navigation shows. */
export async function signInAs(page: Page, app: RunningApp, email: string): Promise<void> {
  await page.goto(`${app.url}/admin`);
  const form = page.locator('bo-sign-in');
  await form.getByLabel('E-mail', { exact: true }).fill(email);
  await form.getByLabel('Senha', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Entrar' }).click();
  await page.getByRole('navigation', { name: 'Seções do console' }).waitFor();
}

/** Follows a section link by keyboard (focus, Enter) and answers the section's region. */
export async function openSection(page: Page, link: string, region: string): Promise<Locator> {
  await page.getByRole('navigation', { name: 'Seções do console' }).getByRole('link', { name: link, exact: true }).focus();
  await page.keyboard.press('Enter');
  const section = page.getByRole('region', { name: region, exact: true });
  await section.waitFor();
  return section;
}

/** The text of what has focus, through the shadow roots of the console's elements. */
export const focused = (page: Page) =>
  page.evaluate(() => {
    let active: Element | null = document.activeElement;
    while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
    return active?.textContent?.trim() ?? null;
  });

/** True when `text` is anywhere in the page: its markup, every shadow tree's, or any field's value. */
export const pageHolds = (page: Page, text: string) =>
  page.evaluate((wanted) => {
    const search = (root: Document | ShadowRoot): boolean => {
      const markup = root instanceof Document ? root.documentElement.outerHTML : root.innerHTML;
      if (markup.includes(wanted)) return true;
      for (const element of root.querySelectorAll('*')) {
        if ((element as HTMLInputElement).value === wanted) return true;
        if (element.shadowRoot && search(element.shadowRoot)) return true;
      }
      return false;
    };
    return search(document);
  }, text);

/** At 390 px: nothing wider than the screen (no sideways scrolling). */
export async function expectFitsPhone(page: Page): Promise<void> {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
}

/** At 390 px: the table is a stack of cards, and each of its buttons lies within the screen. */
export async function expectStackedCards(table: Locator): Promise<void> {
  const layout = await table.evaluate((t) => ({
    table: getComputedStyle(t).display,
    cell: getComputedStyle(t.querySelector('tbody td')!).display,
  }));
  expect(layout).toEqual({ table: 'block', cell: 'flex' });
  for (const button of await table.getByRole('button').all()) {
    const box = (await button.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
  }
}

/**
 * Takes out of `problems` the lines Chromium logs for answers with `status` (a refusal the test asked for), checking
 * there were `count`: they are the expected answer, not a fault of the page.
 */
export function expectRefusals(problems: BrowserProblems, status: number, count: number): void {
  const refused = problems.problems.filter((p) => p.includes(`status of ${status}`));
  expect(refused, `browser log lines of HTTP ${status}`).toHaveLength(count);
  problems.problems.splice(0, problems.problems.length, ...problems.problems.filter((p) => !refused.includes(p)));
}

/**
 * Takes out the browser's log lines of the 401 that `GET /api/admin/session` answers a page opened signed out: the
 * console asks who is signed in on load, and nobody is yet.
 */
export function forgetSignedOutChecks(problems: BrowserProblems): void {
  const checks = problems.problems.filter((p) => p.includes('status of 401') && p.includes('/api/admin/session'));
  problems.problems.splice(0, problems.problems.length, ...problems.problems.filter((p) => !checks.includes(p)));
}

/** The page's live region (the status notices of `<bo-app>`). */
export const notice = (page: Page) => page.locator('bo-app .notice[role="status"]');

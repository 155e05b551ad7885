/**
 * The console's "Chaves de API" section in Chromium against the real process, at desktop size and on a 390 px phone,
 * signed in as an owner: a bad name refused on the page, a key made and shown once with its copy button and warning
 * (and forgotten once closed), listed with its prefix and creator, used by a script, and revoked after the
 * confirmation (the script then gets 401). A viewer sees no such section. axe finds nothing in any state.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, expectNoAxeViolations } from './backoffice-helpers';
import { addUser, expectFitsPhone, expectStackedCards, forgetSignedOutChecks, openSection, signInAs } from './console-sections-helpers';
import { useE2E, type ContextOptions } from './helpers';

const e2e = useE2E({ env: { ADMIN_TOKEN } });

const DEVICES: [string, ContextOptions, number][] = [
  ['desktop', {}, 1],
  ['a 390 px phone', { mobile: true }, 2],
];

describe.each(DEVICES)('the console API keys on %s', (device, options, n) => {
  const mobile = !!options.mobile;
  const owner = `chaves-${n}@loja.test`;
  const viewer = `chaves-leitura-${n}@loja.test`;
  beforeAll(async () => {
    await addUser(e2e.app, owner, 'owner');
    await addUser(e2e.app, viewer, 'viewer');
  });

  const script = (key: string) => fetch(`${e2e.app.url}/api/admin/checkouts`, { headers: { authorization: `Bearer ${key}` } });

  it('makes a key shown once, lists it, and revokes it after the confirmation', { timeout: 120_000 }, async () => {
    const page = await e2e.newPage({ ...options, clipboard: true });
    await signInAs(page, e2e.app, owner);
    const keys = await openSection(page, 'Chaves de API', 'Chaves de API');
    await expect.poll(() => keys.getByText('Carregando…').count()).toBe(0);
    await expectNoAxeViolations(page, `api keys listed (${device})`);

    await keys.getByLabel('Nome').fill('nome com espaço');
    await keys.getByRole('button', { name: 'Criar chave' }).click();
    await expect.poll(() => keys.locator('#ak-name-hint').textContent()).toContain('letras, números');
    await expectNoAxeViolations(page, 'api key name refused');

    const name = `exportacao-${n}`;
    await keys.getByLabel('Nome').fill(name);
    await keys.getByLabel('Papel', { exact: true }).selectOption('viewer');
    await keys.getByRole('button', { name: 'Criar chave' }).click();
    const created = keys.getByTestId('api-key-created');
    await created.waitFor();
    expect(await created.textContent()).toContain('não será mostrada de novo');
    const key = await created.getByLabel('Chave de API').inputValue();
    expect(key).toMatch(/^pck_live_[A-Za-z0-9_-]{43}$/);
    await created.getByRole('button', { name: 'Copiar chave' }).click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(key);
    await expectNoAxeViolations(page, 'api key shown once');
    expect((await script(key)).status).toBe(200);

    await created.getByRole('button', { name: 'Já guardei, fechar' }).click();
    expect(await page.content()).not.toContain(key);
    const row = keys.getByTestId('api-keys-table').locator('tr', { hasText: name });
    await expect.poll(() => row.textContent()).toContain(key.slice(0, 17));
    expect(await row.textContent()).toContain(owner);

    await row.getByRole('button', { name: `Revogar a chave ${name}` }).click();
    await expectNoAxeViolations(page, 'api key revoke confirm');
    await keys.getByRole('button', { name: 'Confirmar revogação' }).click();
    await expect.poll(() => row.textContent()).toContain('Revogada');
    expect((await script(key)).status).toBe(401);
    if (mobile) {
      await expectStackedCards(keys.getByTestId('api-keys-table'));
      await expectFitsPhone(page);
    }
    await expectNoAxeViolations(page, 'api key revoked');
    forgetSignedOutChecks(e2e.problems);
  });

  it('shows no API keys section to a viewer', { timeout: 60_000 }, async () => {
    const page = await e2e.newPage(options);
    await signInAs(page, e2e.app, viewer);
    const nav = page.getByRole('navigation', { name: 'Seções do console' });
    expect(await nav.getByRole('link', { name: 'Chaves de API' }).count()).toBe(0);
    forgetSignedOutChecks(e2e.problems);
  });
});

/**
 * A page on another origin posts a form to the console's API while an owner is signed in. Both are on 127.0.0.1, so
 * for the browser they are the same site and it sends the `SameSite=Strict` session cookie along: SameSite alone
 * would not stop it. The API's JSON-only guard refuses the form's body type (415) before any route; behind it, the
 * back office refuses every cookie-borne write whose `Origin` is not the console's (403 `cross_site_write`, which
 * test/server/backoffice/auth.test.ts sends past the first guard, with a JSON body). The approval the form aimed at
 * stays pending.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, forgiveSignedOut, openBackoffice, sessionCookieOf, signInAs } from './backoffice-helpers';
import { useE2E } from './helpers';

const e2e = useE2E({ env: { ADMIN_TOKEN } });

/** A valid CPF (check digits right), as the cash-out's recipient. */
const CPF = '52998224725';

async function admin(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${e2e.app.url}/api/admin${path}`, {
    method,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json', ...headers },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

describe("a form on another origin, with an owner's session in the browser", () => {
  let attacker: Server;
  let attackerUrl: string;
  let page = '';

  beforeAll(async () => {
    attacker = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(page));
    attacker.listen(0, '127.0.0.1');
    await new Promise((resolve) => attacker.once('listening', resolve));
    attackerUrl = `http://127.0.0.1:${(attacker.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => attacker.close(resolve)));

  it('is refused with the cookie sent along, and the approval it aimed at stays pending', async () => {
    // A cash-out above the approval threshold, asked by the token: it waits for an owner.
    const asked = await admin(
      'POST',
      '/cashouts',
      { recipient: { name: 'Fornecedor Teste', cpf: CPF }, key: { type: 'CPF', value: CPF }, amount: '2500.00' },
      { 'idempotency-key': `cross-site-${Date.now()}` },
    );
    expect(asked.status, JSON.stringify(asked.body)).toBe(202);
    const key = asked.body.idempotencyKey as string;

    const context = await e2e.newContext();
    const desk = await context.newPage();
    await openBackoffice(desk, e2e.app);
    await signInAs(desk, e2e.app, 'owner');
    expect(await sessionCookieOf(context)).toMatchObject({ sameSite: 'Strict', httpOnly: true });

    // The other origin's page: a form that posts itself to the approval as soon as it loads.
    const action = `${e2e.app.url}/api/admin/approvals/${encodeURIComponent(key)}/approve`;
    page = `<!doctype html><title>Promoção</title><form method="post" action="${action}"></form>
      <script>document.forms[0].submit()</script>`;
    const victim = await context.newPage();
    const answered = victim.waitForResponse((response) => response.url() === action);
    await victim.goto(attackerUrl);
    const response = await answered;
    // The cookie went with it (same site), and the form was refused.
    const sent = await response.request().allHeaders();
    expect(sent['cookie']).toMatch(/pix_admin=/);
    expect(sent['origin']).toBe(attackerUrl);
    expect(response.status()).toBe(415);
    expect(await response.json()).toMatchObject({ error: { code: 'unsupported_media_type' } });

    const pending = await admin('GET', '/approvals?state=pending');
    expect(pending.body.data.map((m: { idempotencyKey: string }) => m.idempotencyKey)).toContain(key);
    forgiveSignedOut(e2e.problems);
    // The refused form's answer is the browser's only log line besides the signed-out check.
    const refused = (p: string) => p.includes('status of 415') && p.includes('/approve');
    expect(e2e.problems.problems.filter(refused)).toHaveLength(1);
    e2e.problems.problems.splice(0, e2e.problems.problems.length, ...e2e.problems.problems.filter((p) => !refused(p)));
  });
});

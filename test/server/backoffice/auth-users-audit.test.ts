/**
 * The console's users (`/users`, owners only) and the audit trail (`/audit`, its CSV export), on SQLite and (with
 * TEST_DATABASE_URL) PostgreSQL: adding, changing and disabling users with their refusals (the last owner, a taken
 * e-mail, a short password); the trail's entries for sign-ins, user changes and webhook endpoint changes, as the
 * user, the e-mail tried or `api-token`, never a password; its pages newest first; no way to change or delete an
 * entry; and the export, streamed a page at a time, in both formats.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { AUDIT_EXPORT_PAGE_SIZE } from '../../../server/backoffice/routes/audit';
import { DATABASES } from '../merchant-webhooks/databases';
import { parseCsv } from '../helpers/csv';
import { ADMIN_TOKEN, consoleWorld, freshAddress, PASSWORD } from './auth-helpers';

describe.each(DATABASES)('console users and the audit trail (%s)', (_name, database) => {
  const world = consoleWorld(database);

  /** The newest entries of the trail matching `query`, read with the token. */
  const trail = async (query: string) => (await world.client.withToken('GET', `/audit?${query}`)).body.data as any[];

  describe('users', () => {
    it('keeps the only enabled owner from being demoted or disabled (409 last_owner), and records the refusal', async () => {
      const { id, email } = await world.client.user('owner');
      // The others (the demo's owners) disabled first: this one is then the last.
      const others = (await world.client.withToken('GET', '/users')).body.data.filter(
        (u: any) => u.role === 'owner' && !u.disabled && u.id !== id,
      );
      for (const other of others)
        expect((await world.client.withToken('PATCH', `/users/${other.id}`, { disabled: true })).status).toBe(200);
      for (const change of [{ role: 'operator' }, { disabled: true }]) {
        expect(await world.client.withToken('PATCH', `/users/${id}`, change)).toMatchObject({
          status: 409,
          body: { error: { code: 'last_owner' } },
        });
      }
      expect((await trail(`actor=api-token&action=user.disable&limit=1`))[0]).toMatchObject({
        target: email,
        outcome: 'refused',
        details: { code: 'last_owner' },
      });
      const second = await world.client.user('owner');
      expect(await world.client.withToken('PATCH', `/users/${id}`, { role: 'operator' })).toMatchObject({
        status: 200,
        body: { role: 'operator' },
      });
      expect((await world.client.withToken('PATCH', `/users/${second.id}`, { disabled: true })).status).toBe(409);
    });

    it('adds a user (201, never its hash), lists it, and refuses a taken e-mail in any case and a short password', async () => {
      const email = `new-${randomUUID()}@example.com`;
      const owner = await world.client.session((await world.client.user('owner')).email);
      const added = await world.client.withCookie(owner, 'POST', '/users', {
        email: email.toUpperCase(),
        role: 'viewer',
        password: PASSWORD,
      });
      expect(added.status).toBe(201);
      expect(added.body).toEqual({
        id: expect.stringMatching(/^usr_/),
        email,
        role: 'viewer',
        disabled: false,
        createdAt: world.clock.now().toISOString(),
        lastSignInAt: null,
      });
      const listed = await world.client.withCookie(owner, 'GET', '/users');
      expect(listed.body.data).toContainEqual(added.body);
      expect(listed.text).not.toMatch(/scrypt|password/i);

      const taken = await world.client.withCookie(owner, 'POST', '/users', { email, role: 'owner', password: PASSWORD });
      expect(taken).toMatchObject({ status: 409, body: { error: { code: 'user_exists' } } });
      const short = await world.client.withCookie(owner, 'POST', '/users', {
        email: `s-${email}`,
        role: 'viewer',
        password: 'elevenchars',
      });
      expect(short).toMatchObject({ status: 422, body: { error: { code: 'password_too_short' } } });
      for (const bad of [
        { email: 'not-an-email', role: 'viewer', password: PASSWORD },
        { email: `r-${email}`, role: 'admin', password: PASSWORD },
      ]) {
        expect((await world.client.withCookie(owner, 'POST', '/users', bad)).status).toBe(400);
      }
    });

    it('changes a role and the state, answers 404 for an unknown user and 400 for an empty change', async () => {
      const { id } = await world.client.user('viewer');
      expect(await world.client.withToken('PATCH', `/users/${id}`, { role: 'operator' })).toMatchObject({
        status: 200,
        body: { role: 'operator' },
      });
      expect(await world.client.withToken('PATCH', `/users/${id}`, { disabled: true })).toMatchObject({
        status: 200,
        body: { disabled: true },
      });
      expect(await world.client.withToken('PATCH', `/users/${id}`, { disabled: false })).toMatchObject({
        status: 200,
        body: { disabled: false },
      });
      for (const unknown of ['usr_nobody', 'not-an-id']) {
        expect(await world.client.withToken('PATCH', `/users/${unknown}`, { role: 'viewer' })).toMatchObject({
          status: 404,
          body: { error: { code: 'user_not_found' } },
        });
      }
      expect((await world.client.withToken('PATCH', `/users/${id}`, {})).status).toBe(400);
      expect((await world.client.withToken('PATCH', `/users/${id}`, { role: 'operator', extra: 1 })).status).toBe(400);
    });
  });

  describe('the audit trail', () => {
    it('records sign-ins that worked and failed, from the caller address, as the e-mail tried, never the password', async () => {
      const { email } = await world.client.user('operator');
      const tried = `Nobody-${randomUUID()}@Example.com`;
      const address = freshAddress();
      await world.client.signIn(email, PASSWORD, {}, address);
      await world.client.signIn(tried, `${PASSWORD}-typo`, {}, address);
      expect(await trail(`actor=${encodeURIComponent(email)}&action=session`)).toMatchObject([
        { actor: email, role: 'operator', ip: address, action: 'session.sign_in', target: email, outcome: 'ok' },
      ]);
      const failed = await trail(`actor=${encodeURIComponent(tried)}`);
      expect(failed).toMatchObject([
        {
          actor: tried.toLowerCase(),
          role: null,
          ip: address,
          action: 'session.sign_in',
          outcome: 'refused',
          details: { code: 'invalid_credentials' },
        },
      ]);
      expect(JSON.stringify(failed)).not.toContain(PASSWORD);
    });

    it('records user changes and webhook endpoint changes as the user who made them', async () => {
      const owner = await world.client.user('owner');
      const cookie = await world.client.session(owner.email);
      const added = (
        await world.client.withCookie(cookie, 'POST', '/users', { email: `a-${owner.email}`, role: 'viewer', password: PASSWORD })
      ).body;
      await world.client.withCookie(cookie, 'PATCH', `/users/${added.id}`, { role: 'operator' });
      await world.client.withCookie(cookie, 'PATCH', `/users/${added.id}`, { disabled: true });
      const endpoint = (await world.client.withCookie(cookie, 'POST', '/webhook-endpoints', { url: 'https://shop.example/audited' })).body;
      await world.client.withCookie(cookie, 'POST', `/webhook-endpoints/${endpoint.id}/rotate`);
      await world.client.withCookie(cookie, 'POST', `/webhook-endpoints/${endpoint.id}/disable`);
      await world.client.withCookie(cookie, 'DELETE', '/session');

      const entries = await trail(`actor=${encodeURIComponent(owner.email)}&limit=20`);
      expect(entries.map((e) => [e.action, e.target, e.outcome])).toEqual([
        ['session.sign_out', owner.email, 'ok'],
        ['webhook_endpoint.disable', endpoint.id, 'ok'],
        ['webhook_endpoint.rotate', endpoint.id, 'ok'],
        ['webhook_endpoint.add', endpoint.id, 'ok'],
        ['user.disable', added.email, 'ok'],
        ['user.change', added.email, 'ok'],
        ['user.add', added.email, 'ok'],
        ['session.sign_in', owner.email, 'ok'],
      ]);
      expect(entries.find((e) => e.action === 'user.change').details).toEqual({ role: 'operator', previousRole: 'viewer' });
      for (const entry of entries) expect(entry).toMatchObject({ role: 'owner', at: world.clock.now().toISOString() });
      expect(JSON.stringify(entries)).not.toMatch(/whsec_|scrypt|long enough/);
    });

    it('refuses a period outside what both databases compare with a 400, never a 500', async () => {
      for (const from of ['0000-01-01T00:00:00.000Z', '1969-12-31T23:59:59.000Z']) {
        const refused = await world.client.withToken('GET', `/audit?from=${from}&limit=10`);
        expect(refused, from).toMatchObject({ status: 400, body: { error: { code: 'invalid_request' } } });
      }
      expect((await world.client.withToken('GET', '/audit?from=1970-01-01T00:00:00.000Z&limit=1')).status).toBe(200);
    });

    it('records a write refused for the role (access.denied), and not a read', async () => {
      const viewer = await world.client.user('viewer');
      const cookie = await world.client.session(viewer.email);
      expect((await world.client.withCookie(cookie, 'POST', '/cashouts', {})).status).toBe(403);
      expect((await world.client.withCookie(cookie, 'GET', '/users')).status).toBe(403);
      const entries = await trail(`actor=${encodeURIComponent(viewer.email)}&action=access&limit=10`);
      expect(entries.map((e) => [e.action, e.target, e.outcome, e.role, e.details])).toEqual([
        ['access.denied', '/cashouts', 'refused', 'viewer', { code: 'admin_forbidden', needed: 'operator', method: 'POST' }],
      ]);
    });

    it('pages newest first with a cursor, to a last page whose next is null', async () => {
      const actor = `pager-${randomUUID()}@example.com`;
      const seqs: number[] = [];
      for (let i = 0; i < 5; i++)
        seqs.unshift((await world.server.store.appendAudit({ ...entryOf(actor), at: world.clock.now().toISOString() })).seq);
      const seen: number[] = [];
      let after: number | null | undefined;
      let pages = 0;
      do {
        const page = await world.client.withToken('GET', `/audit?actor=${actor}&limit=2${after ? `&after=${after}` : ''}`);
        expect(page.status).toBe(200);
        seen.push(...page.body.data.map((e: { seq: number }) => e.seq));
        after = page.body.next;
        pages++;
      } while (after !== null);
      expect(seen).toEqual(seqs);
      expect(pages).toBe(3);
      expect((await world.client.withToken('GET', '/audit?after=abc')).body.error.code).toBe('invalid_cursor');
      expect((await world.client.withToken('GET', '/audit?limit=500')).status).toBe(400);
      expect((await world.client.withToken('GET', '/audit?outcome=maybe')).status).toBe(400);
    });

    it('has no route that changes or deletes an entry', async () => {
      const actor = `kept-${randomUUID()}@example.com`;
      const kept = await world.server.store.appendAudit({ ...entryOf(actor), at: world.clock.now().toISOString() });
      for (const method of ['PUT', 'PATCH', 'DELETE', 'POST']) {
        for (const path of ['/audit', `/audit/${kept.seq}`]) {
          const response = await world.client.withToken(method, path, method === 'DELETE' ? undefined : { actor: 'someone-else' });
          expect([404, 405]).toContain(response.status);
        }
      }
      expect(await trail(`actor=${actor}`)).toEqual([kept]);
    });

    it('exports the filtered trail as CSV, a page at a time, in pt-BR by default and ISO on request', async () => {
      const actor = `export-${randomUUID()}@example.com`;
      const count = AUDIT_EXPORT_PAGE_SIZE * 2 + 3;
      const at = '2026-03-10T15:04:05.000Z';
      for (let i = 0; i < count; i++) await world.server.store.appendAudit({ ...entryOf(actor), at, details: { n: i, note: 'a;b "c"' } });

      const pt = await world.client.withToken('GET', `/audit/export.csv?actor=${actor}`);
      expect(pt.status).toBe(200);
      expect(pt.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      expect(pt.headers.get('content-disposition')).toMatch(/^attachment; filename="auditoria-\d{4}-\d{2}-\d{2}\.csv"$/);
      const rows = parseCsv(pt.text, ';');
      // The pt-BR file starts with a BOM (which a decoding reader, as above, drops).
      const raw = await fetch(`${world.server.url}/api/admin/audit/export.csv?actor=${actor}`, {
        headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      });
      expect([...new Uint8Array(await raw.arrayBuffer()).slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
      expect(rows[0]).toEqual(['Nº', 'Data e hora', 'Quem', 'Papel', 'Endereço IP', 'Ação', 'Alvo', 'Resultado', 'Detalhes']);
      const body = rows.slice(1);
      expect(body).toHaveLength(count);
      const seqs = body.map((row) => Number(row[0]));
      expect(seqs).toEqual([...seqs].sort((a, b) => b - a));
      expect(new Set(seqs).size).toBe(count);
      expect(body[0]!.slice(1, 8)).toEqual([
        '10/03/2026 12:04:05',
        actor,
        'Proprietário',
        '203.0.113.7',
        'user.add',
        'x@example.com',
        'Feito',
      ]);
      expect(JSON.parse(body[0]![8]!)).toEqual({ n: count - 1, note: 'a;b "c"' });

      const iso = await world.client.withToken('GET', `/audit/export.csv?actor=${actor}&format=csv-iso`);
      const isoRows = parseCsv(iso.text, ',');
      expect(isoRows[0]).toEqual(['seq', 'at', 'actor', 'role', 'ip', 'action', 'target', 'outcome', 'details']);
      expect(isoRows).toHaveLength(count + 1);
      expect(isoRows[1]!.slice(1, 8)).toEqual([at, actor, 'owner', '203.0.113.7', 'user.add', 'x@example.com', 'ok']);
      expect((await world.client.withToken('GET', `/audit/export.csv?format=xlsx`)).status).toBe(400);
    });

    it('lets a viewer read and export the trail', async () => {
      const cookie = await world.client.session((await world.client.user('viewer')).email);
      expect((await world.client.withCookie(cookie, 'GET', '/audit?limit=1')).status).toBe(200);
      expect((await world.client.withCookie(cookie, 'GET', '/audit/export.csv?action=session')).status).toBe(200);
    });
  });
});

/** An entry written straight to the store (the trail's own routes only read). */
const entryOf = (actor: string) => ({
  actor,
  role: 'owner' as const,
  ip: '203.0.113.7',
  action: 'user.add',
  target: 'x@example.com',
  outcome: 'ok' as const,
  details: {},
});

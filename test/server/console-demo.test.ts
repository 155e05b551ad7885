/**
 * The console in the demo process (`npm start`), on SQLite and (with TEST_DATABASE_URL) PostgreSQL: the demo's users
 * added at the first start with their passwords in DATA_DIR/demo-users.txt (owner-only), none added again at a
 * restart; the built console at /admin under its own CSP (the demo's page policy does not replace it), its script and
 * stylesheet loaded from our origin with SRI hashes that match what is served, no inline script; the old back-office
 * page sent to /admin; the sandbox portal page served.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_USERS, DEMO_USERS_FILE, parseDemoUsers } from '../../demo/demo-users';
import { CONSOLE_CSP } from '../../server/console';
import { DATABASES, type TestDatabaseEnv } from './merchant-webhooks/databases';
import { startTestServer, tempDir, type TestServer } from './helpers/server';

/** The console is built by `npm run build` (npm test and test:e2e build it; test:server alone may run without). */
const built = existsSync(fileURLToPath(new URL('../../dist/console/manifest.json', import.meta.url)));

describe.each(DATABASES)('the demo console users (%s)', (_name, database) => {
  let db: TestDatabaseEnv;
  let dataDir: string;
  let server: TestServer | undefined;
  beforeAll(async () => {
    db = await database();
    dataDir = tempDir();
  });
  afterAll(async () => {
    await server?.close();
    await db?.drop();
  });

  const signIn = (s: TestServer, email: string, password: string) =>
    s.json('POST', '/api/admin/session', { email, password }, { origin: new URL(s.publicBaseUrl).origin });

  it('are added at the first start, each able to sign in with its role, their passwords in an owner-only file', async () => {
    server = await startTestServer({ dataDir, env: db.env });
    const file = join(dataDir, DEMO_USERS_FILE);
    expect(server.demoUsers).toEqual({ file, created: true });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const users = parseDemoUsers(readFileSync(file, 'utf8'));
    expect(users.map(({ email, role }) => ({ email, role }))).toEqual(DEMO_USERS.map(({ email, role }) => ({ email, role })));
    expect(users.filter((u) => u.role === 'owner')).toHaveLength(2);
    expect(new Set(users.map((u) => u.password)).size).toBe(users.length);
    for (const { email, role, password } of users) {
      expect(password.length).toBeGreaterThanOrEqual(12);
      const signedIn = await signIn(server, email, password);
      expect(signedIn.status, `${email}: ${signedIn.text}`).toBe(200);
      expect(signedIn.body.user).toEqual({ email, role });
    }
    // The product's own user list says the same, and the audit trail tells who added them.
    const listed = await server.json('GET', '/api/admin/users', undefined, { authorization: `Bearer ${server.config.adminToken}` });
    expect(listed.body.data.map((u: { email: string }) => u.email).sort()).toEqual(DEMO_USERS.map((u) => u.email).sort());
  });

  it('are not added again at a restart: the file keeps the passwords of the first start', async () => {
    const file = join(dataDir, DEMO_USERS_FILE);
    const before = readFileSync(file, 'utf8');
    await server!.close();
    server = await startTestServer({ dataDir, env: db.env });
    expect(server.demoUsers).toEqual({ file, created: false });
    expect(readFileSync(file, 'utf8')).toBe(before);
    const [owner] = parseDemoUsers(before);
    expect((await signIn(server, owner!.email, owner!.password)).status).toBe(200);
    expect((await server.store.listUsers()).length).toBe(DEMO_USERS.length);
  });
});

describe('the console in the demo', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server?.close());

  it('sends the old back-office page to /admin', async () => {
    const res = await fetch(`${server.url}/backoffice.html`, { redirect: 'manual' });
    expect(res.status).toBe(301);
    expect(res.headers.get('location')).toBe('/admin');
  });

  it('serves the sandbox portal page and its script under the demo policy', async () => {
    const page = await fetch(`${server.url}/sandbox-portal.html`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('<script type="module" src="/assets/sandbox-portal.js"></script>');
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(page.headers.get('content-security-policy')).not.toBe(CONSOLE_CSP);
  });

  it.skipIf(!built)('serves the built console at /admin under its own CSP, with SRI hashes that match, and no inline script', async () => {
    const page = await fetch(`${server.url}/admin`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toBe(CONSOLE_CSP);
    expect(page.headers.get('cache-control')).toBe('no-store');
    const html = await page.text();
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attributes, body] of scripts) {
      expect(body!.trim(), 'an inline script').toBe('');
      expect(attributes).toMatch(/\ssrc="\/admin\/assets\//);
    }
    expect(html).not.toMatch(/<style\b|\sstyle="|\son[a-z]+=/i);
    const tags = [...html.matchAll(/<(?:script|link)\b[^>]*?(?:src|href)="(\/admin\/assets\/[^"]+)"[^>]*?integrity="([^"]+)"/g)];
    expect(tags.map(([, src]) => src!.replace(/\.[0-9a-f]{16}\./, '.*.'))).toEqual([
      '/admin/assets/console.*.css',
      '/admin/assets/console.*.js',
    ]);
    for (const [, src, integrity] of tags) {
      const asset = await fetch(server.url + src!);
      expect(asset.status, src).toBe(200);
      expect(asset.headers.get('cache-control')).toContain('immutable');
      const digest = createHash('sha384')
        .update(Buffer.from(await asset.arrayBuffer()))
        .digest('base64');
      expect(`sha384-${digest}`, src).toBe(integrity);
    }
  });
});

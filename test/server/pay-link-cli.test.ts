/**
 * `npm run admin -- link <orderId> [--days N]` (server/admin-cli.ts) as a merchant runs it, in a child process: the
 * link is PUBLIC_BASE_URL's `/pay/<orderId>` with an order token in the fragment, signed with the key the BFF checks
 * (ORDERS_TOKEN with the order source, else DATA_DIR/orders-token), valid for 7 days or `--days N`; a bad order id or
 * day count is one line on stderr and exit code 1.
 */
import { describe, expect, it } from 'vitest';
import { runAdminCli, type CliResult } from './helpers/admin-cli';
import { verifyOrderToken } from '../../server/bff/order-token';
import { keptSecret } from '../../server/config';
import { tempDir } from './helpers/server';

/** A process start costs a second or more on a busy machine. */
const SLOW = 60_000;
const DAY = 86_400_000;

/** Runs the CLI with `args` and `env` over a clean environment's configuration; resolves with its exit code and output. */
function admin(args: string[], env: Record<string, string>): Promise<CliResult> {
  const base: NodeJS.ProcessEnv = { ...process.env, ...env };
  for (const name of ['ORDERS_URL', 'ORDERS_TOKEN', 'PUBLIC_BASE_URL', 'PORT', 'DATABASE_URL']) if (!(name in env)) delete base[name];
  return runAdminCli(args, base);
}

/** The order id and token of a printed link under `base`. */
function parseLink(stdout: string, base: string) {
  const line = stdout.trim();
  expect(line.split('\n')).toHaveLength(1);
  const url = new URL(line);
  expect(`${url.origin}${url.pathname}`.startsWith(`${base}/pay/`)).toBe(true);
  expect(url.search).toBe('');
  const token = new URLSearchParams(url.hash.slice(1)).get('t');
  expect(token).toMatch(/^\d+\.[\w-]{43}$/);
  return { orderId: decodeURIComponent(url.pathname.slice('/pay/'.length)), token: token! };
}

describe('npm run admin -- link', () => {
  it(
    'prints a link whose token the BFF of DATA_DIR accepts for 7 days, at the default address',
    async () => {
      const dataDir = tempDir('pay-link-');
      const before = Date.now();
      const { code, stdout, stderr } = await admin(['link', 'order-1001'], { DATA_DIR: dataDir, PORT: '4321' });
      expect(code).toBe(0);
      const { orderId, token } = parseLink(stdout, 'http://127.0.0.1:4321');
      expect(orderId).toBe('order-1001');
      const key = keptSecret(dataDir, 'orders-token');
      expect(verifyOrderToken(key, 'order-1001', token, new Date(before + 7 * DAY - 60_000))).toEqual({ ok: true });
      expect(verifyOrderToken(key, 'order-1001', token, new Date(Date.now() + 7 * DAY + 1000))).toEqual({ ok: false, reason: 'expired' });
      expect(verifyOrderToken(key, 'order-1002', token, new Date(before))).toEqual({ ok: false, reason: 'invalid' });
      expect(stderr).toMatch(/^Valid until \d{4}-\d\d-\d\dT.*\(7 days\)/);
    },
    SLOW,
  );

  it(
    'signs with ORDERS_TOKEN when the order source is set, under PUBLIC_BASE_URL, for --days N',
    async () => {
      const ordersToken = 'the-merchant-orders-token-0123';
      const env = {
        DATA_DIR: tempDir('pay-link-'),
        ORDERS_URL: 'https://shop.example/orders',
        ORDERS_TOKEN: ordersToken,
        PUBLIC_BASE_URL: 'https://pay.shop.example/',
      };
      const before = Date.now();
      const { code, stdout } = await admin(['link', 'A:1_b.c-2', '--days', '30'], env);
      expect(code).toBe(0);
      const { orderId, token } = parseLink(stdout, 'https://pay.shop.example');
      expect(orderId).toBe('A:1_b.c-2');
      expect(verifyOrderToken(ordersToken, orderId, token, new Date(before + 30 * DAY - 60_000))).toEqual({ ok: true });
      expect(verifyOrderToken(ordersToken, orderId, token, new Date(Date.now() + 30 * DAY + 1000)).ok).toBe(false);
    },
    SLOW,
  );

  it.each([
    ['no order id', ['link'], /link needs an order id/],
    ['an order id of the wrong shape', ['link', 'a b'], /is not an order id/],
    ['a day count that is not a number', ['link', 'order-1', '--days', 'soon'], /--days needs a whole number/],
    ['no days', ['link', 'order-1', '--days', '0'], /--days needs a whole number/],
    ['more than a year', ['link', 'order-1', '--days', '366'], /--days needs a whole number/],
    ['an unknown flag', ['link', 'order-1', '--forever'], /Unexpected "--forever"/],
  ])(
    'refuses %s in one line on stderr',
    async (_name, args, message) => {
      const { code, stdout, stderr } = await admin(args, { DATA_DIR: tempDir('pay-link-') });
      expect(code).toBe(1);
      expect(stdout).toBe('');
      expect(stderr.trim().split('\n')).toHaveLength(1);
      expect(stderr).toMatch(message);
    },
    SLOW,
  );
});

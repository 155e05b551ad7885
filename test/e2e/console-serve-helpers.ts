/**
 * Steps of the console's proof through `npm run serve` (console-serve.test.ts): the console's users made with the real
 * `npm run admin` CLI, the real `npm run serve` process started and stopped as a process group, calls to the admin API
 * with a browser context's own session cookie, and a pt-BR spreadsheet's reading of the CSV export (BOM, `;`, quoted
 * cells, decimal comma) with São Paulo's wall clock computed on its own.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import type { BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';
import type { ProviderClient } from '../../server/provider';
import { focused } from './console-sections-helpers';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** What a process printed and how it ended. */
interface Finished {
  code: number | null;
  output: string;
}

/**
 * `npm run --silent admin -- user add <email> --role <role> --password-stdin`, the password on its standard input,
 * with `env` added to ours (the server's DATA_DIR); resolves with its exit code and everything it printed.
 */
export function addUserWithCli(env: Record<string, string>, email: string, role: string, password: string): Promise<Finished> {
  const child = spawn('npm', ['run', '--silent', 'admin', '--', 'user', 'add', email, '--role', role, '--password-stdin'], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  child.stdin.end(`${password}\n`);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGTERM');
      reject(new Error(`npm run admin did not finish in 30 s:\n${output}`));
    }, 30_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

export interface ServeProcess {
  /** The address it says it listens on. */
  url: string;
  /** Everything it printed so far, for a failure's message. */
  output(): string;
  /** SIGTERM to the whole group (npm, its shell and tsx); resolves once npm exited. */
  stop(): Promise<void>;
}

/**
 * Spawns `npm run --silent --ignore-scripts serve` with `env` added to ours (the build, its `preserve`, is
 * `npm run build`'s, done beforehand) and resolves once it says where it listens; rejects with its output when it
 * exits first or stays silent for 30 s.
 */
export async function startServe(env: Record<string, string>): Promise<ServeProcess> {
  const child: ChildProcess = spawn('npm', ['run', '--silent', '--ignore-scripts', 'serve'], {
    cwd: root,
    env: { ...process.env, ...env },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.pid && child.exitCode === null && child.signalCode === null) {
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        // The group is gone already.
      }
    }
    await exited;
  };
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`npm run serve did not listen in 30 s:\n${output}`)), 30_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const match = /pix-checkout BFF listening on (http:\/\/[^\s"]+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`npm run serve exited with ${code} before listening:\n${output}`));
    });
  }).catch(async (error: unknown) => {
    await stop();
    throw error;
  });
  return { url, output: () => output, stop };
}

/** The id of what has focus, through the shadow roots of the console's elements. */
export const focusedId = (page: Page) =>
  page.evaluate(() => {
    let active: Element | null = document.activeElement;
    while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
    return active?.id ?? null;
  });

/** Opens the console at `baseUrl` and waits for its sign-in. */
export async function openSignIn(page: Page, baseUrl: string): Promise<void> {
  await page.goto(`${baseUrl}/admin`);
  await page.getByRole('heading', { name: 'Entrar no console' }).waitFor();
}

/** Signs in by keyboard only: the e-mail (focused on arrival), Tab, the password, Enter. */
export async function signInByKeyboard(page: Page, email: string, password: string): Promise<void> {
  await expect.poll(() => focusedId(page), { message: 'the e-mail field has focus on arrival' }).toBe('email');
  await page.keyboard.type(email);
  await page.keyboard.press('Tab');
  await page.keyboard.type(password);
  await page.keyboard.press('Enter');
}

/** From the payments list, the detail of the order's payment (its row showing `amount`); answers its refund region. */
export async function openPayment(page: Page, orderId: string, amount: string) {
  const payments = page.getByRole('region', { name: 'Pagamentos recebidos' });
  const row = payments.locator(`tr[data-order="${orderId}"]`);
  await expect.poll(() => row.count(), { timeout: 10_000, message: 'the paid order is listed' }).toBe(1);
  expect(await row.textContent()).toContain(amount);
  await row.getByRole('button', { name: /^Detalhes/ }).click();
  const detail = page.getByRole('region', { name: `Pagamento do pedido ${orderId}` });
  const refund = detail.getByRole('region', { name: 'Reembolso', exact: true });
  await refund.getByTestId('refund-summary').waitFor();
  return { detail, refund };
}

/** Types `amount` in the refund's field, Enter to review, Tab to "Confirmar reembolso", Enter: keyboard only. */
export async function refundByKeyboard(page: Page, amount: string): Promise<void> {
  await page.getByLabel('Valor do reembolso (R$)').focus();
  await page.keyboard.press('Control+A');
  await page.keyboard.type(amount);
  await page.keyboard.press('Enter');
  await expect.poll(() => focused(page), { message: 'the confirmation has focus' }).toBe('Confirme o reembolso');
  await page.keyboard.press('Tab');
  expect(await focused(page)).toBe('Confirmar reembolso');
  await page.keyboard.press('Enter');
}

/**
 * The transactions the provider holds for the order id of a cash-out (`orderId`, made about `around`), read through its
 * partner API: what reached it.
 */
export async function providerTransactionsOf(provider: ProviderClient, orderId: string, around: string) {
  const start = Date.parse(around) - 3_600_000;
  const page = await provider.transactions.list({
    transactionOrderId: orderId,
    startDate: new Date(start).toISOString(),
    endDate: new Date(start + 86_400_000 - 1).toISOString(),
    'dataset.limit': 5,
    'dataset.offset': 0,
  });
  return page.items.map((item) => item.transaction);
}

/** An answer of the admin API: its status and parsed JSON body (null when it has none). */
export interface AdminAnswer {
  status: number;
  body: any;
}

/**
 * Calls `/api/admin<path>` with the session cookie of `context` (the browser's own cookie jar), as a page of the
 * console's origin would: a write carries that Origin and a fresh Idempotency-Key.
 */
export async function adminCallAs(
  context: BrowserContext,
  baseUrl: string,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
): Promise<AdminAnswer> {
  const headers: Record<string, string> = method === 'GET' ? {} : { origin: new URL(baseUrl).origin, 'idempotency-key': randomUUID() };
  const response = await context.request.fetch(`${baseUrl}/api/admin${path}`, {
    method,
    headers,
    ...(body !== undefined ? { data: body } : {}),
  });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = null;
  }
  return { status: response.status(), body: parsed };
}

/**
 * The rows of a pt-BR CSV file as a Brazilian spreadsheet reads them: the UTF-8 BOM first (else the accents are
 * misread), `;` between cells, CRLF between rows, a cell in double quotes may hold `;`, line breaks and `""` for a
 * quote. Throws on a file without the BOM or with an unclosed quote.
 */
export function readPtBrCsv(text: string): string[][] {
  if (!text.startsWith('\uFEFF')) throw new Error('the pt-BR CSV must start with a UTF-8 BOM');
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  const body = text.slice(1);
  for (let i = 0; i < body.length; i++) {
    const ch = body[i]!;
    if (quoted) {
      if (ch === '"' && body[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"' && cell === '') quoted = true;
    else if (ch === ';') {
      row.push(cell);
      cell = '';
    } else if (ch === '\r' && body[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += ch;
  }
  if (quoted) throw new Error('the CSV ends inside a quoted cell');
  if (cell !== '' || row.length > 0) rows.push([...row, cell]);
  return rows;
}

/** The rows of a pt-BR CSV as objects keyed by its header line's names. */
export function ptBrCsvRecords(text: string): Record<string, string>[] {
  const [header, ...rows] = readPtBrCsv(text);
  if (!header) throw new Error('the CSV has no header line');
  return rows.map((cells) => {
    if (cells.length !== header.length) throw new Error(`a row has ${cells.length} cells, the header ${header.length}: ${cells.join(';')}`);
    return Object.fromEntries(header.map((name, i) => [name, cells[i]!]));
  });
}

/**
 * A pt-BR amount as a spreadsheet reads it ("80,00", "78,708", "-0,99": a decimal comma, no thousands separator), as
 * an exact count of units of `scale` decimals (2: cents; 6: the provider's micro amounts of fees), never a binary
 * float. Throws on anything else, or on more decimals than `scale`.
 */
export function unitsOfPtBr(cell: string, scale: number): bigint {
  const match = /^(-?)(\d+)(?:,(\d+))?$/.exec(cell);
  if (!match || (match[3]?.length ?? 0) > scale) throw new Error(`"${cell}" is not a pt-BR amount of at most ${scale} decimals`);
  const units = BigInt(match[2]! + (match[3] ?? '').padEnd(scale, '0'));
  return match[1] ? -units : units;
}

/** Cents of a pt-BR amount written at cents ("80,00"): exactly two decimals, as the export writes whole cents. */
export function centsOfPtBr(cell: string): number {
  if (!/^-?\d+,\d{2}$/.test(cell)) throw new Error(`"${cell}" is not a pt-BR amount with two decimals`);
  return Number(unitsOfPtBr(cell, 2));
}

/**
 * São Paulo's wall clock of an instant as `dd/mm/aaaa hh:mm:ss`, computed apart from the server's Intl time zones:
 * Brazil has kept UTC−3 all year since it ended daylight saving time in 2019.
 */
export function saoPauloWallClock(iso: string): string {
  const at = new Date(Date.parse(iso) - 3 * 3_600_000);
  if (Number.isNaN(at.getTime())) throw new Error(`"${iso}" is not an instant`);
  const two = (n: number) => String(n).padStart(2, '0');
  return (
    `${two(at.getUTCDate())}/${two(at.getUTCMonth() + 1)}/${at.getUTCFullYear()} ` +
    `${two(at.getUTCHours())}:${two(at.getUTCMinutes())}:${two(at.getUTCSeconds())}`
  );
}

/**
 * Issue 27, goal 4: a shopper's navigation → QR drawn, cold, on the payment link page (`/pay/<orderId>#t=<token>`)
 * and on the demo's checkout page, on a desktop and on throttled phones (./lib/throttled-load.ts), each beside the
 * network's own floor for that page measured in the same browser under the same throttling (./lib/network-floor.ts:
 * the same bytes in the same round trips, nothing else). The demo runs in a process of its own, as `npm start` runs it.
 * Each row also says how many round trips and bytes came before the QR. The demo's pages are built first
 * (scripts/build-demo.mjs), so a row never measures a stale page script. `BENCH_PHONE_PAGES` (`pay,demo` by default)
 * picks the pages, for a short run on one of them.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { startNetworkFloor } from './lib/network-floor';
import { median, summarize } from './lib/stats';
import { PROFILES, throttledLoad, type Load, type Profile } from './lib/throttled-load';
import type { Row } from './rows';

const { chromiumArgs, findChromium, installHint } = (await import(new URL('../scripts/find-chromium.mjs', import.meta.url).href)) as {
  chromiumArgs: string[];
  findChromium: () => string | undefined;
  installHint: string;
};

const root = fileURLToPath(new URL('..', import.meta.url));

/** `npm start`'s process (the demo on the emulator), on a free port and a throw-away DATA_DIR. */
async function startDemoProcess() {
  const dataDir = mkdtempSync(join(tmpdir(), 'pix-bench-phone-'));
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: '0', DATA_DIR: dataDir, CHECKOUT_RATE_PER_MINUTE: '0' };
  delete env.DATABASE_URL;
  const child = spawn(process.execPath, ['--import', 'tsx', 'demo/main.ts'], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match) resolve(match[1]!);
    });
    child.once('exit', (code) => reject(new Error(`bench: the demo exited with ${code}:\n${output}`)));
  });
  return {
    url,
    async close() {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A new order of the demo shop: its id and the token the shop hands the shopper. */
async function placeOrder(base: string): Promise<{ orderId: string; orderToken: string }> {
  const response = await fetch(`${base}/demo/api/orders`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ items: [{ sku: 'cafe-especial', quantity: 1 }] }),
  });
  if (response.status !== 201) throw new Error(`bench: placing an order answered ${response.status}`);
  return (await response.json()) as { orderId: string; orderToken: string };
}

/** The pages a shopper lands on, each for a new order, as the shop or the merchant links to them. */
const PAGES = {
  'payment link': (base: string, o: { orderId: string; orderToken: string }) =>
    `${base}/pay/${o.orderId}#t=${encodeURIComponent(o.orderToken)}`,
  'demo checkout': (base: string, o: { orderId: string; orderToken: string }) =>
    `${base}/checkout.html?order=${o.orderId}#order-token=${encodeURIComponent(o.orderToken)}`,
} as const;
type PageName = keyof typeof PAGES;

/** The pages `BENCH_PHONE_PAGES` names (`pay`, `demo`), all of them by default. */
function chosenPages(): PageName[] {
  const short: Record<string, PageName> = { pay: 'payment link', demo: 'demo checkout' };
  const names = (process.env.BENCH_PHONE_PAGES ?? 'pay,demo').split(',').map((name) => name.trim());
  const unknown = names.find((name) => !short[name]);
  if (unknown !== undefined) throw new Error(`BENCH_PHONE_PAGES: pay, demo or both, comma-separated (not ${unknown})`);
  return names.map((name) => short[name]!);
}

/** What a goal allows on each profile (issue 27, goal 4). */
const GOAL_MS: Record<string, number> = { desktop: 250, 'slow 4G, 4× CPU': 1_000, '3G, 6× CPU': 1_600 };

export interface PhoneFigure {
  page: PageName;
  profile: Profile;
  project: Load[];
  floor: Load[];
}

export async function phoneRows({ runs, log }: { runs: number; log: (line: string) => void }): Promise<PhoneFigure[]> {
  const executablePath = findChromium();
  if (!executablePath) throw new Error(installHint);
  const pages = chosenPages();
  log('bench: building the demo pages (node scripts/build-demo.mjs)');
  execFileSync(process.execPath, [join(root, 'scripts/build-demo.mjs')], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  const demo = await startDemoProcess();
  const floor = await startNetworkFloor();
  const browser = await chromium.launch({ executablePath, args: chromiumArgs });
  const figures: PhoneFigure[] = [];
  try {
    // Warm-up: the server's paths and the browser, unthrottled.
    for (const page of pages) await throttledLoad(browser, PAGES[page](demo.url, await placeOrder(demo.url)), PROFILES[0]!);
    for (const profile of PROFILES) {
      for (const page of pages) {
        const figure: PhoneFigure = { page, profile, project: [], floor: [] };
        // Interleaved, so a slow moment of the machine falls on both.
        for (let i = 0; i < runs; i++) {
          const load = await throttledLoad(browser, PAGES[page](demo.url, await placeOrder(demo.url)), profile);
          figure.project.push(load);
          figure.floor.push(await throttledLoad(browser, floor.url(load.documentBytes, load.bytes, load.roundTrips), profile));
        }
        figures.push(figure);
        log(`phone: ${page}, ${profile.name}: p50 ${median(figure.project.map((l) => l.ms)).toFixed(0)} ms`);
      }
    }
  } finally {
    await browser.close();
    await floor.close();
    await demo.close();
  }
  return figures;
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/** One row per page and profile: navigation → QR p50 beside the floor's p50, with the round trips and bytes. */
export function phoneTable(figures: PhoneFigure[]): Row[] {
  return figures.map(({ page, profile, project, floor }) => {
    const p50 = summarize(project.map((l) => l.ms)).p50;
    const floorP50 = summarize(floor.map((l) => l.ms)).p50;
    const trips = median(project.map((l) => l.roundTrips));
    const bytes = median(project.map((l) => l.bytes));
    const goal = GOAL_MS[profile.name]!;
    const net = profile.network;
    const computed = net ? trips * net.latencyMs + (bytes * 8) / net.downKbps : undefined;
    return {
      id: `nav-qr-${page.replace(/\W+/g, '-')}-${profile.name.split(/\W/)[0]!.toLowerCase()}${profile.cpu}`,
      what:
        `Navigation → QR drawn, ${page} page, ${profile.name}, cold, p50 (${trips} round trips, ${kb(bytes)} and ` +
        `${median(project.map((l) => l.requests))} requests before the QR)`,
      value: p50,
      unit: 'ms',
      better: 'lower',
      baseline:
        `bare page, same bytes and round trips, same throttling: p50 ${floorP50.toFixed(0)} ms` +
        (computed === undefined ? '' : ` (RTT × trips + bytes / bandwidth: ${computed.toFixed(0)} ms)`),
      baselineValue: floorP50,
      goal: `≤ ${goal.toLocaleString('en')} ms`,
      met: p50 <= goal,
      floor: { what: 'the bare page with the same bytes and round trips, same throttling, p50', value: floorP50 },
    };
  });
}

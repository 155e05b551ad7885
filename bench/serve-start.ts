/**
 * How long `npm run serve` takes from its start to its first ready answer, on an empty store: the launcher
 * (scripts/serve.mjs: the build's freshness check) and the built server (dist/server, `npm run build`) with plain Node,
 * timed from the spawn to the first 200 of `/readyz` (`/healthz` on a server without one). Each run has a new data
 * folder, so the store is created and migrated within the time measured. SQLite, no provider call (nothing is live).
 *
 *   node --import tsx bench/serve-start.ts [runs, default 7] [--tsx]
 *
 * `--tsx` times the sources under tsx instead (`tsx server/main.ts`, what `npm run serve` ran before the build, less
 * the build of the element and the console it ran first), for comparison.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, get } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const runs = Number(process.argv.slice(2).find((arg) => /^\d+$/.test(arg)) ?? 7);
const fromSources = process.argv.includes('--tsx');
const command = fromSources ? ['--import', 'tsx', 'server/main.ts'] : ['scripts/serve.mjs'];

/** The status of GET `url`, or undefined while nothing listens. */
const statusOf = (url: string) =>
  new Promise<number | undefined>((resolve) => {
    const request = get(url, { agent: false }, (response) => {
      response.resume();
      resolve(response.statusCode);
    });
    request.on('error', () => resolve(undefined));
  });

/** A port nothing listens on yet. */
async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * The CPU time the process `pid` has used, in milliseconds (Linux: /proc/<pid>/stat, in clock ticks of 10 ms), or NaN
 * elsewhere. On a busy machine the wall time is mostly waiting for a core; this is what the start itself costs.
 */
function cpuMs(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return Number.NaN;
  }
}

/** One start: milliseconds from the spawn to the first 200 (wall and the process's CPU), and which path answered it. */
async function oneStart(): Promise<{ ms: number; cpu: number; path: string }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'pix-serve-start-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env = {
    ...process.env,
    PORT: String(port),
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    // Never called on an empty store; a closed port would do, a listening stand-in keeps any call from hanging.
    PROVIDER_BASE_URL: `${provider.url}/v1`,
    PROVIDER_ACCESS_KEY: 'bench-access-key',
    PROVIDER_SECRET: 'bench-secret',
    ORDERS_URL: `${provider.url}/orders`,
    ORDERS_TOKEN: 'bench-orders-token-0123456789',
  };
  const started = performance.now();
  const child = spawn(process.execPath, command, { cwd: root, env, stdio: ['ignore', 'ignore', 'pipe'] });
  let errors = '';
  child.stderr.on('data', (chunk) => (errors += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`serve stopped before it was ready:\n${errors}`);
      const ready = await statusOf(`${base}/readyz`);
      if (ready === 200) return { ms: performance.now() - started, cpu: cpuMs(child.pid!), path: '/readyz' };
      if (ready === 404 && (await statusOf(`${base}/healthz`)) === 200) {
        return { ms: performance.now() - started, cpu: cpuMs(child.pid!), path: '/healthz' };
      }
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  } finally {
    child.kill('SIGTERM');
    await exited;
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const stub = createServer((_request, response) => response.writeHead(503).end()).listen(0, '127.0.0.1');
await new Promise((resolve) => stub.once('listening', resolve));
const provider = { url: `http://127.0.0.1:${(stub.address() as AddressInfo).port}` };

const times: number[] = [];
const cpus: number[] = [];
let path = '';
for (let i = 0; i < runs; i++) {
  const start = await oneStart();
  times.push(start.ms);
  cpus.push(start.cpu);
  path = start.path;
}
stub.close();
times.sort((a, b) => a - b);
cpus.sort((a, b) => a - b);
const median = times[Math.floor(times.length / 2)]!;
const cpuMedian = cpus[Math.floor(cpus.length / 2)]!;
console.log(
  `${fromSources ? 'tsx server/main.ts' : 'npm run serve'}, start to the first 200 of ${path} (empty SQLite store, ${runs} runs): median ${median.toFixed(0)} ms, ` +
    `min ${times[0]!.toFixed(0)} ms, max ${times.at(-1)!.toFixed(0)} ms; the process's CPU time meanwhile: median ${cpuMedian.toFixed(0)} ms`,
);

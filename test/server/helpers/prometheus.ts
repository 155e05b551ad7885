/**
 * A real Prometheus (Debian's `prometheus` package, which .ci/run installs) for one test file: a throw-away config
 * that scrapes one target every second with a bearer token, a throw-away storage folder, on a free loopback port.
 * A machine without it fails the test that asks for it (no silent skip): CI has it.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { tempDir } from './server';

/** The binary on PATH (or PROMETHEUS_BIN); throws a readable error when there is none. */
export function prometheusBin(name: 'prometheus' | 'promtool' = 'prometheus'): string {
  const bin = name === 'prometheus' ? (process.env.PROMETHEUS_BIN ?? 'prometheus') : (process.env.PROMTOOL_BIN ?? 'promtool');
  const found = spawnSync(bin, ['--version'], { encoding: 'utf8' });
  if (found.error || found.status !== 0) {
    throw new Error(`${name} is missing: install Debian's prometheus package (apt-get install prometheus), as .ci/run does.`);
  }
  return bin;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export interface RunningPrometheus {
  url: string;
  /** The value of an instant query's first sample, or undefined while it has none. */
  query(promql: string): Promise<{ metric: Record<string, string>; value: [number, string] }[]>;
  stop(): Promise<void>;
}

/** Starts Prometheus scraping `target` (`host:port`) at `/metrics` with `token`, and waits until it is ready. */
export async function startPrometheus({ target, token }: { target: string; token: string }): Promise<RunningPrometheus> {
  const bin = prometheusBin();
  const dir = tempDir('prometheus-');
  const port = await freePort();
  const config = join(dir, 'prometheus.yml');
  writeFileSync(
    config,
    [
      'global:',
      '  scrape_interval: 1s',
      '  scrape_timeout: 1s',
      'scrape_configs:',
      '  - job_name: pix-checkout',
      '    metrics_path: /metrics',
      '    authorization:',
      '      type: Bearer',
      `      credentials: ${JSON.stringify(token)}`,
      '    static_configs:',
      `      - targets: [${JSON.stringify(target)}]`,
      '',
    ].join('\n'),
  );
  const url = `http://127.0.0.1:${port}`;
  let output = '';
  const child: ChildProcess = spawn(
    bin,
    [
      `--config.file=${config}`,
      `--storage.tsdb.path=${join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--storage.tsdb.retention.time=1h',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null) child.kill('SIGTERM');
    await exited;
    rmSync(dir, { recursive: true, force: true });
  };

  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`prometheus exited (${child.exitCode}):\n${output}`);
    const ready = await fetch(`${url}/-/ready`).then(
      (answer) => answer.ok,
      () => false,
    );
    if (ready) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`prometheus was not ready within 30 s:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }

  return {
    url,
    async query(promql) {
      const answer = await fetch(`${url}/api/v1/query?query=${encodeURIComponent(promql)}`);
      const body = (await answer.json()) as {
        status: string;
        data?: { result: { metric: Record<string, string>; value: [number, string] }[] };
      };
      if (body.status !== 'success') throw new Error(`query ${promql}: ${JSON.stringify(body)}`);
      return body.data!.result;
    },
    stop,
  };
}

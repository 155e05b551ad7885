/**
 * The container's files (Dockerfile, compose.yaml), checked without a daemon (these machines pull no image): the
 * image runs the built server as a user who is not root, its health check asks `/readyz`, and every variable the
 * image or the compose service sets is one server/config.ts reads. The image's command itself is started with the
 * image's environment, and its health check run against it passes; against a stand-in answering 503, it fails.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SETTING_NAMES } from '../../../server/config';
import { freePort, startRecordingServer } from '../helpers/http';
import { ensureServerBuild, plainNodeEnv, ROOT } from '../helpers/server-build';
import { tempDir } from '../helpers/server';

interface Instruction {
  name: string;
  args: string;
}

/** The Dockerfile's instructions by stage (continuation lines joined, comments left out). */
function stages(text: string): Instruction[][] {
  const lines = text.replace(/\\\n/g, ' ').split('\n');
  const result: Instruction[][] = [];
  for (const line of lines.map((l) => l.trim()).filter((l) => l && !l.startsWith('#'))) {
    const [, name, args] = /^(\w+)\s+(.*)$/.exec(line)!;
    if (name!.toUpperCase() === 'FROM') result.push([]);
    result.at(-1)!.push({ name: name!.toUpperCase(), args: args!.replace(/\s+/g, ' ').trim() });
  }
  return result;
}

/** `ENV A=1 B=2` (or the old `ENV A 1`) as its pairs. */
function envOf(args: string): Record<string, string> {
  if (!args.includes('=')) {
    const [key, ...value] = args.split(' ');
    return { [key!]: value.join(' ') };
  }
  return Object.fromEntries(args.split(' ').map((pair) => pair.split('=', 2) as [string, string]));
}

/** The keys under `services.<service>.environment` of compose.yaml (a map, two spaces an indent). */
function composeEnvironment(text: string, service: string): Record<string, string> {
  const lines = text.split('\n');
  const start = lines.indexOf(`  ${service}:`);
  const found: Record<string, string> = {};
  let inEnvironment = false;
  for (const line of lines.slice(start + 1)) {
    if (/^ {0,2}\S/.test(line)) break;
    if (/^ {4}\S/.test(line)) inEnvironment = line.trim() === 'environment:';
    else if (inEnvironment && /^ {6}\w+:/.test(line)) {
      const [, key, value] = /^ {6}(\w+):\s*(.*)$/.exec(line)!;
      found[key!] = value!;
    }
  }
  return found;
}

const dockerfile = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');
const compose = readFileSync(join(ROOT, 'compose.yaml'), 'utf8');
const final = stages(dockerfile).at(-1)!;
const last = (name: string) => final.filter((i) => i.name === name).at(-1);
const imageEnv = Object.assign({}, ...final.filter((i) => i.name === 'ENV').map((i) => envOf(i.args))) as Record<string, string>;

describe('Dockerfile', () => {
  it('builds in one stage and runs on the official Node 20 slim image with production dependencies only', () => {
    const all = stages(dockerfile);
    expect(all.length).toBeGreaterThanOrEqual(2);
    for (const stage of all) expect(stage[0]!.args).toMatch(/^node:20-slim\b/);
    expect(all[0]!.some((i) => i.name === 'RUN' && i.args.includes('npm run build'))).toBe(true);
    expect(final.some((i) => i.name === 'RUN' && /npm ci --omit=dev/.test(i.args))).toBe(true);
    expect(final.some((i) => i.name === 'COPY' && /--from=build \/app\/dist /.test(i.args))).toBe(true);
  });

  it('runs as a user who is not root, its data folder a volume', () => {
    const user = last('USER')?.args;
    expect(user).toBeDefined();
    expect(user).not.toMatch(/^(root|0)(:|$)/);
    expect(final.findIndex((i) => i.name === 'USER')).toBeLessThan(final.findIndex((i) => i.name === 'CMD'));
    expect(JSON.parse(last('VOLUME')!.args)).toContain(imageEnv.DATA_DIR);
  });

  it('sets no variable server/config.ts does not read', () => {
    expect(Object.keys(imageEnv).length).toBeGreaterThan(0);
    for (const name of Object.keys(imageEnv)) expect(SETTING_NAMES, name).toContain(name);
  });

  describe('its command and health check', () => {
    beforeAll(ensureServerBuild, 60_000);

    /** Runs the HEALTHCHECK's command with the image's environment, PORT being `port`; its exit code. */
    async function healthCheck(port: number | string): Promise<number | null> {
      const [, options, command] = /^((?:--\S+ )*)CMD (.*)$/.exec(last('HEALTHCHECK')!.args)!;
      expect(options).toMatch(/--interval=\S+/);
      const [program, ...args] = JSON.parse(command!) as string[];
      expect(program).toBe('node');
      const child = spawn(process.execPath, args, { env: plainNodeEnv({ ...imageEnv, PORT: String(port) }), stdio: 'ignore' });
      return new Promise((resolve) => child.once('exit', resolve));
    }

    it('is the built server with plain Node, which starts with the image environment and passes the health check', async () => {
      const command = JSON.parse(last('CMD')!.args) as string[];
      expect(command).toEqual(['node', 'dist/server/main.js']);
      const port = await freePort();
      const child = spawn(process.execPath, command.slice(1), {
        cwd: ROOT,
        env: plainNodeEnv({
          ...imageEnv,
          // The image's values but for where it listens and keeps its data, which must be free here.
          PORT: String(port),
          DATA_DIR: tempDir(),
          DATABASE_URL: '',
          PROVIDER_BASE_URL: 'http://127.0.0.1:9/v1',
          PROVIDER_ACCESS_KEY: 'container-test-key',
          PROVIDER_SECRET: 'container-test-secret',
          ORDERS_URL: 'http://127.0.0.1:9/orders',
          ORDERS_TOKEN: 'orders-token-of-the-container-test',
        }),
        stdio: 'ignore',
      });
      const exited = new Promise((resolve) => child.once('exit', resolve));
      try {
        const deadline = Date.now() + 15_000;
        let status: number | undefined;
        while (status !== 200 && Date.now() < deadline && child.exitCode === null) {
          status = await fetch(`http://127.0.0.1:${port}/readyz`).then(
            (r) => r.status,
            () => undefined,
          );
          if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 50));
        }
        expect(status).toBe(200);
        expect(await healthCheck(port)).toBe(0);
      } finally {
        child.kill('SIGTERM');
        await exited;
      }
    });

    describe('the health check, against a stand-in', () => {
      let readiness = 200;
      let stand: Awaited<ReturnType<typeof startRecordingServer>>;
      beforeAll(async () => {
        stand = await startRecordingServer((_req, res) => {
          res.writeHead(readiness).end();
        });
      });
      afterAll(() => stand?.close());

      it('asks /readyz and passes on its 200', async () => {
        readiness = 200;
        expect(await healthCheck(new URL(stand.url).port)).toBe(0);
        expect(stand.requests.at(-1)).toMatchObject({ method: 'GET', url: '/readyz' });
      });

      it('fails on a 503 (the store unreachable, or draining)', async () => {
        readiness = 503;
        expect(await healthCheck(new URL(stand.url).port)).toBe(1);
      });
    });
  });
});

describe('compose.yaml', () => {
  const bff = composeEnvironment(compose, 'bff');

  it('runs the BFF image on the PostgreSQL service, by DATABASE_URL', () => {
    expect(compose).toMatch(/^ {2}postgres:\n {4}image: postgres:\d+/m);
    expect(compose).toMatch(/^ {2}bff:\n {4}build: \./m);
    expect(bff.DATABASE_URL).toMatch(/^postgres:\/\/[^@]+@postgres:5432\//);
  });

  it("sets no variable server/config.ts does not read, and asks for what the BFF can't start without", () => {
    expect(Object.keys(bff).length).toBeGreaterThan(5);
    for (const name of Object.keys(bff)) expect(SETTING_NAMES, name).toContain(name);
    for (const required of ['PROVIDER_BASE_URL', 'PROVIDER_ACCESS_KEY', 'PROVIDER_SECRET', 'ORDERS_URL', 'ORDERS_TOKEN', 'SECRETS_KEY']) {
      expect(bff[required], required).toMatch(/^\$\{\w+:\?/);
    }
  });
});

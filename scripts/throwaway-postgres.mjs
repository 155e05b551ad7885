// A PostgreSQL cluster for one test run: initdb into a temporary directory, a server on 127.0.0.1 at a free port
// (TCP only, no Unix socket, so it never meets another cluster's socket or lock files), and a role with CREATEDB
// (the tests make and drop their own databases). stop() shuts it down and deletes the directory; halt() shuts it down
// and keeps it, and resume() starts it again on the same data and port (a database outage, for the tests of one).
//
// initdb and postgres refuse to run as root: as root they run as the `postgres` user (created as a system user when
// it does not exist), and the directory belongs to it.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  accessSync,
  chownSync,
  closeSync,
  constants,
  existsSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';

export const missingServerHint =
  'PostgreSQL suites skipped: no PostgreSQL server (initdb, postgres) in PATH or /usr/lib/postgresql/*/bin; ' +
  'install one (Debian: apt-get install -y postgresql) or set TEST_DATABASE_URL.';

const ROLE = 'pixtest';
const SUPERUSER = 'postgres';
const SERVER_USER = 'postgres';

const isExecutable = (path) => {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
};

/** Debian's per-version directories, newest first. */
function debianBinDirs() {
  const root = '/usr/lib/postgresql';
  let versions;
  try {
    versions = readdirSync(root);
  } catch {
    return [];
  }
  return versions.sort((a, b) => b.localeCompare(a, 'en', { numeric: true })).map((version) => join(root, version, 'bin'));
}

/** The directory holding initdb and postgres of one installation (PATH first), or undefined. */
export function findPostgresBin() {
  const dirs = [...(process.env.PATH ?? '').split(delimiter).filter(Boolean), ...debianBinDirs()];
  for (const dir of dirs) {
    const initdb = join(dir, 'initdb');
    if (!isExecutable(initdb)) continue;
    // A link in PATH (say to Debian's directory) stands for the directory it points into, where postgres is too.
    for (const candidate of [dirname(realpathSync(initdb)), dir]) {
      if (isExecutable(join(candidate, 'postgres'))) return candidate;
    }
  }
  return undefined;
}

function passwdEntry(name) {
  const fromGetent = spawnSync('getent', ['passwd', name], { encoding: 'utf8' });
  const line =
    fromGetent.status === 0
      ? fromGetent.stdout.trim()
      : (() => {
          try {
            return readFileSync('/etc/passwd', 'utf8')
              .split('\n')
              .find((entry) => entry.startsWith(`${name}:`));
          } catch {
            return undefined;
          }
        })();
  if (!line) return undefined;
  const [, , uid, gid] = line.split(':');
  return { name, uid: Number(uid), gid: Number(gid) };
}

/** Who runs the server: ourselves, or when we are root an unprivileged user. */
function serverUser(log) {
  if (process.getuid?.() !== 0) return undefined;
  let user = passwdEntry(SERVER_USER);
  if (!user) {
    log(`postgres: creating the system user ${SERVER_USER} to run it (initdb and postgres refuse to run as root)`);
    const created = spawnSync(
      'useradd',
      ['--system', '--user-group', '--no-create-home', '--home-dir', '/nonexistent', '--shell', '/usr/sbin/nologin', SERVER_USER],
      { stdio: ['ignore', 2, 2] },
    );
    user = created.status === 0 ? passwdEntry(SERVER_USER) : undefined;
    if (!user) throw new Error(`could not create the user ${SERVER_USER} to run PostgreSQL as (we are root, which it refuses)`);
  }
  return user;
}

/** Whether every directory from `dir` up to / lets others through (the server user must reach its directory). */
function reachableByAll(dir) {
  for (let current = realpathSync(dir); ; current = dirname(current)) {
    if ((statSync(current).mode & 0o001) === 0) return false;
    if (dirname(current) === current) return true;
  }
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const sleepSync = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

function tail(path, lines = 5) {
  try {
    return readFileSync(path, 'utf8').trim().split('\n').slice(-lines).join('\n');
  } catch {
    return '';
  }
}

/**
 * Starts the cluster and returns its URL (for TEST_DATABASE_URL), its version line, and a synchronous, idempotent
 * stop() that is safe to call from an exit handler.
 */
export async function startThrowawayPostgres({ bin = findPostgresBin(), log = (line) => console.error(line) } = {}) {
  if (!bin) throw new Error(missingServerHint);
  const user = serverUser(log);
  const base = user && !reachableByAll(tmpdir()) ? '/tmp' : tmpdir();
  const root = mkdtempSync(join(base, 'pix-test-pg-'));
  const data = join(root, 'data');
  const logPath = join(root, 'postgres.log');
  const runAs = user ? { uid: user.uid, gid: user.gid } : {};
  let postmaster;
  let stopped = false;

  /** Shuts the server down (fast, then immediate, then its process group killed), keeping its data directory. */
  const shutDown = () => {
    const pid = postmaster?.pid;
    postmaster = undefined;
    if (!pid) return;
    const signal = (name, target = pid) => {
      try {
        process.kill(target, name);
      } catch {
        // Already gone.
      }
    };
    // postmaster.pid goes away when the server has shut down (the process may stay a zombie until we are back in
    // the event loop, so it is the file we watch). Fast shutdown, then immediate, then kill its process group.
    const down = (ms) => {
      for (let waited = 0; waited < ms; waited += 50) {
        if (!existsSync(join(data, 'postmaster.pid'))) return true;
        sleepSync(50);
      }
      return false;
    };
    signal('SIGINT');
    if (!down(10_000)) {
      signal('SIGQUIT');
      down(5_000);
    }
    signal('SIGKILL', -pid);
  };

  const stop = () => {
    if (stopped) return;
    stopped = true;
    shutDown();
    rmSync(root, { recursive: true, force: true });
  };

  /** Starts the server on `port`; the exit flag tells whether it has exited since. */
  const launch = (port) => {
    const out = openSync(logPath, 'a');
    postmaster = spawn(
      join(bin, 'postgres'),
      [
        ...['-D', data, '-p', String(port)],
        ...['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
        // Thrown away after the run: no need to survive a crash.
        ...['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'],
      ],
      // Its own process group: a Ctrl-C in the terminal reaches the tests, and we shut the server down after them.
      { cwd: root, detached: true, stdio: ['ignore', out, out], ...runAs },
    );
    closeSync(out);
    postmaster.unref();
    const state = { exited: false };
    postmaster.once('exit', () => (state.exited = true));
    return state;
  };

  /** A connected client of `url`, or undefined when the server exits or does not answer within 30 s. */
  const connectWhenUp = async (pg, url, state) => {
    for (let waited = 0; !state.exited && waited < 30_000; waited += 100) {
      const attemptClient = new pg.Client({ connectionString: url });
      try {
        await attemptClient.connect();
        return attemptClient;
      } catch {
        await attemptClient.end().catch(() => undefined);
        await sleep(100);
      }
    }
    return undefined;
  };

  try {
    const superPassword = randomBytes(18).toString('hex');
    const password = randomBytes(18).toString('hex');
    const pwfile = join(root, 'superuser-password');
    writeFileSync(pwfile, `${superPassword}\n`, { mode: 0o600 });
    if (user) {
      chownSync(root, user.uid, user.gid);
      chownSync(pwfile, user.uid, user.gid);
    }

    const version = spawnSync(join(bin, 'postgres'), ['--version'], { encoding: 'utf8' }).stdout?.trim() ?? 'postgres';
    const initdb = spawnSync(
      join(bin, 'initdb'),
      ['-D', data, '-U', SUPERUSER, `--pwfile=${pwfile}`, '--auth=scram-sha-256', '--encoding=UTF8', '--locale=C', '--no-sync'],
      { cwd: root, encoding: 'utf8', ...runAs },
    );
    if (initdb.status !== 0) {
      const why = (initdb.stderr || initdb.stdout || initdb.error?.message || '').trim().split('\n').slice(-3).join(' ');
      throw new Error(`initdb failed: ${why}`);
    }
    rmSync(pwfile);

    const { default: pg } = await import('pg');
    for (let attempt = 1; ; attempt++) {
      const port = await freePort();
      const state = launch(port);
      const superUrl = `postgres://${SUPERUSER}:${superPassword}@127.0.0.1:${port}/postgres`;
      const client = await connectWhenUp(pg, superUrl, state);
      if (!client) {
        const logTail = tail(logPath);
        // Another process took the port between our probe and the server's bind: try another one.
        if (state.exited && attempt < 3 && /could not bind|already in use/i.test(logTail)) continue;
        throw new Error(`the server did not start: ${logTail.split('\n').join(' | ') || 'no log'}`);
      }
      try {
        await client.query(`CREATE ROLE ${ROLE} LOGIN CREATEDB PASSWORD '${password}'`);
        await client.query(`CREATE DATABASE ${ROLE} OWNER ${ROLE}`);
      } finally {
        await client.end();
      }
      const url = `postgres://${ROLE}:${password}@127.0.0.1:${port}/${ROLE}`;
      /** Stops the server and keeps its data (an outage, for the tests that live through one). */
      const halt = () => {
        if (!stopped) shutDown();
      };
      /** Starts the halted server again on the same data and port; resolves once it takes connections. */
      const resume = async () => {
        if (stopped || postmaster) return;
        const client = await connectWhenUp(pg, superUrl, launch(port));
        if (!client) throw new Error(`the server did not start again: ${tail(logPath).split('\n').join(' | ') || 'no log'}`);
        await client.end();
      };
      return { url, port, version, dir: root, stop, halt, resume };
    }
  } catch (error) {
    stop();
    throw error;
  }
}

// `npm test`: every check in order (types, lint and layer rules, server, element, end to end); stops at the first
// failure. `npm test -- test:server` (or any of the steps) runs only those, with the same setup.
//
// It first gets what the steps need and the machine lacks:
// - the system Chromium for test:widget and test:e2e (scripts/require-chromium.mjs: installed with apt-get when we
//   may, otherwise one line saying what to install);
// - a PostgreSQL for test:server: TEST_DATABASE_URL when it is set, else a throw-away cluster
//   (scripts/throwaway-postgres.mjs) when a server is installed, started just before the step and stopped and
//   deleted right after it whatever happens (failure, Ctrl-C), else one line saying the PostgreSQL suites skip
//   themselves.
import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import { ensureChromium } from './require-chromium.mjs';
import { findPostgresBin, missingServerHint, startThrowawayPostgres } from './throwaway-postgres.mjs';

const ALL = ['typecheck', 'lint', 'test:server', 'test:widget', 'test:e2e'];
const asked = process.argv.slice(2);
const unknown = asked.filter((step) => !ALL.includes(step));
if (unknown.length > 0) {
  console.error(`test: no step ${unknown.join(', ')}; the steps are ${ALL.join(', ')}`);
  process.exit(2);
}
const steps = asked.length > 0 ? asked : ALL;
const say = (line) => console.error(`test: ${line}`);

const cleanups = [];
const cleanUp = () => {
  for (const cleanup of cleanups.splice(0).reverse()) {
    try {
      cleanup();
    } catch (error) {
      say(`clean-up failed: ${error instanceof Error ? error.message : error}`);
    }
  }
};
// Last resort when something calls process.exit on the way: the cluster still goes.
process.on('exit', cleanUp);

// Each step runs in a process group of its own, and a signal that reaches us (Ctrl-C, kill) goes to that whole
// group: npm's `sh -c` would not pass it on to the test runner. The step ends, no further step starts, and the
// clean-up below runs.
let child;
let interrupted;
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    interrupted ??= signal;
    if (child?.pid) {
      try {
        process.kill(-child.pid, signal);
      } catch {
        // The step has just ended.
      }
    }
  });
}

const run = (step) =>
  new Promise((resolve) => {
    child = spawn('npm', ['run', '--silent', step], { stdio: 'inherit', detached: true });
    child.once('error', (error) => {
      say(`could not start npm: ${error.message}`);
      resolve(1);
    });
    child.once('exit', (code) => resolve(code ?? 1));
  }).finally(() => (child = undefined));

function setUpBrowser() {
  // Browser tests use the system Chromium; no tool may fetch its own.
  process.env.PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD = '1';
  if (steps.includes('test:widget') || steps.includes('test:e2e')) ensureChromium({ log: say });
}

/** Just before test:server: the database it needs, and what undoes it (run right after the step, or on the way out). */
async function setUpPostgres() {
  if (process.env.TEST_DATABASE_URL) {
    say('PostgreSQL suites use TEST_DATABASE_URL');
    return () => undefined;
  }
  const bin = findPostgresBin();
  if (!bin) {
    say(missingServerHint);
    return () => undefined;
  }
  const cluster = await startThrowawayPostgres({ bin, log: say }).catch((error) => {
    throw new Error(`test: no throw-away PostgreSQL (${error.message}); set TEST_DATABASE_URL to use another server`);
  });
  const tearDown = () => {
    cluster.stop();
    delete process.env.TEST_DATABASE_URL;
    say('throw-away PostgreSQL stopped and deleted');
  };
  cleanups.push(tearDown);
  process.env.TEST_DATABASE_URL = cluster.url;
  say(`throw-away PostgreSQL for this run: ${cluster.version}, 127.0.0.1:${cluster.port}, data in ${cluster.dir}`);
  return () => {
    cleanups.splice(cleanups.indexOf(tearDown), 1);
    tearDown();
  };
}

let status = 0;
/** Each step's time, said at the end: the whole run is meant to stay under 15 minutes on the two-core machines. */
const took = [];
const runBegan = Date.now();
try {
  // Chromium first: when it is missing and can't be installed, say so before minutes of other steps.
  setUpBrowser();
  for (const step of steps) {
    if (interrupted) break;
    if (step === 'test:server') {
      // The server tests check how the built element is served: build it first, so none of them is skipped.
      console.log('\n> npm run build');
      status = await run('build');
      if (status !== 0 || interrupted) break;
    }
    const tearDown = step === 'test:server' ? await setUpPostgres() : () => undefined;
    if (interrupted) break;
    console.log(`\n> npm run ${step}`);
    const began = Date.now();
    status = await run(step);
    tearDown();
    took.push(`${step} ${((Date.now() - began) / 1000).toFixed(0)} s`);
    if (status !== 0) break;
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  status = 1;
} finally {
  cleanUp();
  if (took.length > 0) say(`took ${took.join(', ')}; in all ${((Date.now() - runBegan) / 60_000).toFixed(1)} min`);
}
process.exitCode = interrupted ? 128 + constants.signals[interrupted] : status;

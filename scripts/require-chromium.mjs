// Makes sure browser tests have the system Chromium (we never download one): finds it, or, when we may (root, or
// passwordless sudo) and apt-get is there, installs Debian's `chromium`. Otherwise it stops with one line saying what
// to install. `node scripts/require-chromium.mjs` exits 1 after that line; scripts/test.mjs calls ensureChromium().
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { findChromium, installHint } from './find-chromium.mjs';

const succeeds = (command, args) => spawnSync(command, args, { stdio: 'ignore' }).status === 0;

/** The prefix that runs a command as root: none when we are root, `sudo -n` when it needs no password, else null. */
function rootPrefix() {
  if (process.getuid?.() === 0) return [];
  if (succeeds('sudo', ['-n', 'true'])) return ['sudo', '-n'];
  return null;
}

/** Returns the Chromium executable, installing it when it can; throws an Error of one line when it can't. */
export function ensureChromium({ log = (line) => console.error(line) } = {}) {
  const chromePath = process.env.CHROME_PATH;
  if (chromePath && !existsSync(chromePath)) throw new Error(`CHROME_PATH is ${chromePath}, which does not exist. ${installHint}`);
  const found = findChromium();
  if (found) return found;

  const prefix = rootPrefix();
  if (prefix === null || !succeeds('sh', ['-c', 'command -v apt-get'])) throw new Error(installHint);

  log("chromium: none found; installing Debian's chromium with apt-get");
  const apt = (...args) => {
    const command = [...prefix, 'env', 'DEBIAN_FRONTEND=noninteractive', 'apt-get', ...args];
    // apt's own messages go to stderr, so a caller's stdout stays clean.
    const { status } = spawnSync(command[0], command.slice(1), { stdio: ['ignore', 2, 2] });
    if (status !== 0) throw new Error(`\`apt-get ${args.join(' ')}\` failed (exit ${status}). ${installHint}`);
  };
  apt('update', '-qq');
  apt('install', '-y', '-qq', 'chromium');
  const installed = findChromium();
  if (!installed) throw new Error(`apt-get installed chromium but no executable is where we look. ${installHint}`);
  log(`chromium: ${installed}`);
  return installed;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    ensureChromium();
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
}

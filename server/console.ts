/**
 * The merchant console (console/, built by scripts/build-console.mjs into `dist/console`) under `/admin`, in both
 * entries (`npm run serve` and `npm start`):
 *
 * - `GET /admin` (and `/admin/`): the page, `cache-control: no-store`, under `CONSOLE_CSP`, its own strict policy
 *   (no inline script or style; the script and stylesheet tags carry their SRI hashes, written by the build);
 * - `GET /admin/assets/<name>.<hash>.<ext>`: the files the build lists in its manifest, content-hashed, so cached
 *   for a year as immutable; scripts and styles brotli- or gzip-compressed when the client accepts it.
 *
 * GET and HEAD only; any other method or name falls through to the 404 envelope. Without a build the page is a 503
 * saying to run `npm run build`, and the assets a 503 envelope. The build is read again when its manifest changes,
 * so a rebuild while the server runs is served at once.
 */
import { Hono, type Context } from 'hono';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { hasBody } from './lib/node-body';
import { errorBody } from './http/error-envelope';
import { IMMUTABLE, pickEncoding } from './widget';

/** The console's own policy: everything from our origin, nothing inline, no frames, no plugins. */
export const CONSOLE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; font-src 'self'; " +
  "form-action 'self'; frame-ancestors 'none'; base-uri 'none'; object-src 'none'";

/** What the build writes to `dist/console/manifest.json`. */
export interface ConsoleManifest {
  /** The page's file, beside the manifest. */
  page: string;
  /** The files under `assets/`, by their content-hashed names. */
  assets: Record<string, { type: string; integrity: string; bytes: number }>;
}

/** `console.3f9a1c0d5e7b2a64.js`: a name, a hash of 8 to 64 hex digits, an extension. */
const HASHED_NAME = /^[a-z][\w-]*\.[0-9a-f]{8,64}\.[a-z0-9]+$/;

type Encoding = 'br' | 'gzip' | 'identity';

interface Build {
  page: string;
  files: Map<string, { type: string; bodies: Partial<Record<Encoding, Buffer>> }>;
}

const NOT_BUILT_PAGE = `<!doctype html>
<html lang="pt-BR">
  <head><meta charset="utf-8" /><title>Console indisponível</title></head>
  <body>
    <h1>O console ainda não foi compilado</h1>
    <p>Rode <code>npm run build</code> no servidor: ele gera <code>dist/console</code>, que o servidor passa a servir em seguida.</p>
    <p lang="en">The console is not built: run <code>npm run build</code> (it writes <code>dist/console</code>).</p>
  </body>
</html>
`;

/** Reads the build of `dir`; throws when it is incomplete (a build in progress) or not ours. */
function readBuild(dir: string): Build {
  const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as ConsoleManifest;
  const files: Build['files'] = new Map();
  for (const [name, { type }] of Object.entries(manifest.assets)) {
    if (!HASHED_NAME.test(name)) throw new Error(`dist/console/manifest.json names a file without a hash: ${name}`);
    const at = join(dir, 'assets', name);
    const bodies: Partial<Record<Encoding, Buffer>> = { identity: readFileSync(at) };
    for (const [encoding, suffix] of [
      ['br', '.br'],
      ['gzip', '.gz'],
    ] as const) {
      try {
        bodies[encoding] = readFileSync(at + suffix);
      } catch {
        // Not precompressed (an image): sent as it is.
      }
    }
    files.set(name, { type, bodies });
  }
  return { page: readFileSync(join(dir, manifest.page), 'utf8'), files };
}

/** True when `dir` holds a console build (what the startup warning checks). */
export const consoleBuilt = (dir: string) => {
  try {
    return statSync(join(dir, 'manifest.json')).isFile();
  } catch {
    return false;
  }
};

/**
 * The console's routes, with their full paths (`/admin`, `/admin/`, `/admin/assets/:name`): mount with
 * `app.route('/', consoleApp(...))`. `warn` hears once, at creation, that the build is missing.
 */
export function consoleApp({ dir, warn }: { dir: string; warn?: (line: string) => void }) {
  if (!consoleBuilt(dir)) warn?.('dist/console is missing: run `npm run build` to serve the console at /admin.');
  let loaded: { mtimeMs: number; build: Build } | undefined;

  function current(): Build | undefined {
    let mtimeMs: number;
    try {
      mtimeMs = statSync(join(dir, 'manifest.json')).mtimeMs;
    } catch {
      // Removed by a build in progress: keep what was served until the new one is whole.
      return loaded?.build;
    }
    if (loaded?.mtimeMs === mtimeMs) return loaded.build;
    try {
      loaded = { mtimeMs, build: readBuild(dir) };
    } catch {
      // Half written: the previous build, if any, until the manifest changes again.
    }
    return loaded?.build;
  }

  const page = (c: Context) => {
    const build = current();
    const headers = { 'content-security-policy': CONSOLE_CSP, 'cache-control': 'no-store', 'content-type': 'text/html; charset=utf-8' };
    return c.body(build?.page ?? NOT_BUILT_PAGE, build ? 200 : 503, headers);
  };

  return (
    new Hono()
      // A GET has no body: one that comes with one is refused at once, in a few bytes. Under a large file Node
      // would reset the connection on the unread body (with `Connection: close`) and cut the answer.
      .use('/admin/*', async (c, next) => {
        if (hasBody(c as Context)) return c.json(errorBody('BadRequest', 'bad_request', 'A GET or HEAD carries no body.'), 400);
        await next();
      })
      .get('/admin', page)
      .get('/admin/', page)
      .get('/admin/assets/:name', (c) => {
        const build = current();
        if (!build) {
          const body = errorBody('ServiceUnavailable', 'console_not_built', 'The console is not built: run `npm run build`.');
          return c.json(body, 503, { 'cache-control': 'no-store' });
        }
        const file = build.files.get(c.req.param('name'));
        if (!file) return c.json(errorBody('NotFound', 'not_found', 'No such route.'), 404);
        const encoding = pickEncoding(c.req.header('accept-encoding'), Object.keys(file.bodies) as Encoding[]);
        const body = file.bodies[encoding]!;
        const headers: Record<string, string> = {
          'cache-control': IMMUTABLE,
          'content-type': file.type,
          'content-length': String(body.length),
          vary: 'Accept-Encoding',
        };
        if (encoding !== 'identity') headers['content-encoding'] = encoding;
        return c.body(new Uint8Array(body), 200, headers);
      })
  );
}

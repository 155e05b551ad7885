/**
 * Every route the demo process serves is one the fuzz suite aims at: a route added to the BFF, the console's API, the
 * emulator or the demo without its target in `routes.ts` fails here, naming itself. The catch-all targets ("any
 * method, any path under …") do not count: a route needs its own target, with its credentials, ids and body.
 * Static files (paths ending in `*`) and middleware (`ALL`) are not routes of their own. A target covers its path
 * with every method, as the suite sends every method to each target's path.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer } from '../helpers/server';
import { ALL_ROUTES } from './routes';

type Served = { method: string; path: string };

const segments = (path: string) => path.split('/').filter(Boolean);

/** Whether a fuzz target's path names the served one: same literals, a parameter for a parameter or for a literal it allows. */
function names(target: string, served: string): boolean {
  const a = segments(target);
  const b = segments(served);
  if (a.length !== b.length) return false;
  return a.every((part, i) => {
    const other = b[i]!;
    if (part === other) return true;
    const choices = /^:\w+\{(.+)\}$/.exec(other)?.[1];
    if (choices) return part.startsWith(':') || new RegExp(`^(?:${choices})$`).test(part);
    return part.startsWith(':') && other.startsWith(':');
  });
}

describe('the fuzz suite', () => {
  let served: Served[];
  let close: () => Promise<void>;

  beforeAll(async () => {
    const server = await startTestServer();
    close = () => server.close();
    const routes = (server.app as unknown as { routes: Served[] }).routes;
    served = [...new Map(routes.map((r) => [`${r.method} ${r.path}`, { method: r.method, path: r.path }])).values()].filter(
      (r) => r.method !== 'ALL' && !r.path.endsWith('*'),
    );
  }, 60_000);
  afterAll(() => close?.());

  it('aims at every route the demo process serves', () => {
    const targets = ALL_ROUTES.flatMap((t) => /^[A-Z]+ (\/\S*)/.exec(t.name)?.[1] ?? []);
    // A path's other methods are covered by the property that sends every method to each target's path (suite.ts).
    const missing = served.filter((r) => !targets.some((path) => names(path, r.path))).map((r) => `${r.method} ${r.path}`);
    expect(served.length).toBeGreaterThan(100);
    expect(missing).toEqual([]);
  });
});

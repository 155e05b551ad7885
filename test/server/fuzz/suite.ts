/**
 * The fuzz properties, run once per database by `sqlite.test.ts` and `postgres.test.ts`:
 *
 * 1. A request a route must refuse (a wrong credential, a body that can't be read, an unknown id, a checkout for a
 *    real order with a wrong token, CPF or return address) is refused, and every stored row of the BFF and of the
 *    emulator is the same after it as before.
 * 2. Every route, sent anything at all, answers within the time limit with a 2xx or a 4xx JSON envelope, or with one
 *    of its documented non-JSON answers (login's bare token, an event stream, the bank page's HTML); never a 5xx,
 *    and never with Object.prototype and friends changed.
 * 3. Every route, sent its valid request with every method (`METHODS`: TRACE, PROPFIND and an unknown one included),
 *    does the same; a HEAD's answer must also end (send.ts checks that the connection serves a request after it).
 * 4. A burst of sign-ins for one e-mail from one address, sent at once, checks no more passwords than the brake allows.
 *
 * Bodies shorter than their `Content-Length` are among the requests of 1 and 2 (routes.ts, `stalled`).
 *
 * Bounded by runs and by time per property: about ten seconds per database on two cores. A failure prints the
 * seed and path fast-check needs to replay it: `FUZZ_SEED=<seed> FUZZ_PATH=<path> npx vitest run test/server/fuzz
 * -t '<test name>'`. `FUZZ_RUNS` and `FUZZ_TIME_MS` (per property) raise the budget for a longer hunt.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { TEST_DATABASE_URL } from '../store/pg-test-database';
import { ALL_ROUTES, METHODS, type Target } from './routes';
import { closeAgent, NoAnswer, send, type FuzzAnswer, type FuzzRequest } from './send';
import { describeAnswer, describeRequest, printable } from './report';
import { prototypeKeys, verdict } from './verdict';
import { startWorld, type DatabaseKind, type World } from './world';

const env = process.env;
const RUNS = Number(env.FUZZ_RUNS) || 40;
const REFUSAL_RUNS = Number(env.FUZZ_RUNS) * 5 || 250;
const TIME_MS = Number(env.FUZZ_TIME_MS) || 3_000;
/** Longer than the emulator's webhook timeout (5 s), which a simulation may wait out. */
const ANSWER_TIMEOUT_MS = 10_000;
/** Wrong passwords one e-mail-and-address pair may try before the sign-in brake answers 429 (server/accounts). */
const BRAKE_ATTEMPTS = 5;

/**
 * How many passwords the brake lets one pair check in a burst that lasted `ms`: its free ones, then one more each time
 * its doubling wait (2 s, 4 s, 8 s… after the last) has passed, the k-th extra no sooner than 2^(k+1) - 2 seconds in.
 */
const brakeAllowance = (ms: number) => BRAKE_ATTEMPTS + Math.max(0, Math.floor(Math.log2(ms / 1000 + 2)) - 1);

function parameters(runs: number, timeMs: number): fc.Parameters<unknown> {
  return {
    numRuns: runs,
    // The budget is time as much as runs: past it, fast-check stops generating (or shrinking) and reports what it has.
    interruptAfterTimeLimit: timeMs,
    markInterruptAsFailure: false,
    ...(env.FUZZ_SEED ? { seed: Number(env.FUZZ_SEED) } : {}),
    ...(env.FUZZ_PATH ? { path: env.FUZZ_PATH } : {}),
  };
}

/** Lines only in `before` and only in `after`, for a readable account of what a refused request changed. */
function difference(before: string, after: string): string {
  const a = new Set(before.split('\n'));
  const b = new Set(after.split('\n'));
  const cut = (line: string) => (line.length > 300 ? `${line.slice(0, 300)}…` : line);
  const gone = [...a]
    .filter((l) => !b.has(l))
    .slice(0, 4)
    .map((l) => `    - ${cut(l)}`);
  const added = [...b]
    .filter((l) => !a.has(l))
    .slice(0, 4)
    .map((l) => `    + ${cut(l)}`);
  return [...gone, ...added].join('\n');
}

export function fuzzSuite(kind: DatabaseKind): void {
  describe.skipIf(kind === 'postgres' && !TEST_DATABASE_URL)(`fuzz: every route on ${kind}`, () => {
    let w: World;
    let prototypes: string;

    beforeAll(async () => {
      w = await startWorld(kind);
      prototypes = prototypeKeys();
    }, 60_000);
    afterAll(async () => {
      await w?.close();
      closeAgent();
    });

    /** Sends one request; a missing answer or a polluted prototype fails the property at once. */
    async function exchange(target: Target, request: FuzzRequest): Promise<FuzzAnswer> {
      let answer: FuzzAnswer;
      try {
        answer = await send(w.url, request, ANSWER_TIMEOUT_MS);
      } catch (error) {
        const why = error instanceof NoAnswer ? error.message : `the connection failed: ${(error as Error).message}`;
        throw new Error(`${target.name}: ${why}\n  request: ${describeRequest(request)}`, { cause: error });
      }
      const polluted = (Object.prototype as Record<string, unknown>).polluted !== undefined || prototypeKeys() !== prototypes;
      if (polluted) {
        throw new Error(
          `${target.name}: a built-in prototype changed\n  request: ${describeRequest(request)}\n  answer: ${describeAnswer(answer)}`,
        );
      }
      return answer;
    }

    it('refuses what it must and then stores nothing new', { timeout: TIME_MS * 4 + 30_000 }, async () => {
      const refusals = ALL_ROUTES.flatMap((target) => {
        const arbitrary = target.refused(w);
        // Printed as the route and the request when fast-check reports a counterexample.
        const pair = (request: FuzzRequest) =>
          Object.defineProperty({ target, request }, fc.toStringMethod, { value: () => `${target.name}: ${describeRequest(request)}` });
        return arbitrary ? [arbitrary.map(pair)] : [];
      });
      await fc.assert(
        fc.asyncProperty(fc.oneof(...refusals), async ({ target, request }) => {
          const before = await w.snapshot();
          const answer = await exchange(target, request);
          const said = `\n  request: ${describeRequest(request)}\n  answer: ${describeAnswer(answer)}`;
          if (answer.status < 400) throw new Error(`${target.name}: accepted a request it must refuse${said}`);
          // A refusal is the client's: a 4xx in the envelope, not a 5xx.
          const problem = verdict(target, request, answer);
          if (problem) throw new Error(`${target.name} ${problem}${said}`);
          const after = await w.snapshot();
          if (after !== before) {
            throw new Error(
              `${target.name}: refused with HTTP ${answer.status} but changed stored data${said}\n${difference(before, after)}`,
            );
          }
        }),
        parameters(REFUSAL_RUNS, TIME_MS * 4),
      );
    });

    for (const target of ALL_ROUTES) {
      it(`${target.name}: 2xx or 4xx JSON, never a 5xx or a hang`, { timeout: TIME_MS + 30_000 }, async () => {
        await fc.assert(
          fc.asyncProperty(target.build(w), async (request) => {
            const answer = await exchange(target, request);
            const problem = verdict(target, request, answer);
            if (problem)
              throw new Error(`${target.name} ${problem}\n  request: ${describeRequest(request)}\n  answer: ${describeAnswer(answer)}`);
          }),
          parameters(RUNS, TIME_MS),
        );
      });
    }

    it('every method on every route: 2xx or 4xx JSON, never a 5xx or a hang', { timeout: 120_000 }, async () => {
      // One valid request per path (the labelled targets of a path share it), sent with each method; a method that
      // takes no body is sent none.
      const samples = new Map<string, { target: Target; request: FuzzRequest }>();
      for (const target of ALL_ROUTES) {
        const request = target.sample?.(w);
        if (request && !samples.has(request.path)) samples.set(request.path, { target, request });
      }
      const problems: string[] = [];
      const streams: { target: Target; request: FuzzRequest }[] = [];
      for (const { target, request } of samples.values()) {
        for (const method of METHODS) {
          const bodiless = ['GET', 'HEAD', 'OPTIONS', 'TRACE'].includes(method);
          const { 'content-type': _type, ...headers } = request.headers;
          const sent = printable({
            ...request,
            method,
            ...(bodiless ? { headers, body: undefined } : {}),
          });
          const answer = await exchange(target, sent);
          const problem = verdict(target, sent, answer);
          if (problem) problems.push(`${target.name} ${problem}\n  request: ${describeRequest(sent)}\n  answer: ${describeAnswer(answer)}`);
          if (method === 'GET' && answer.stream) streams.push({ target, request: sent });
        }
      }
      // More HEADs on each event stream than its limits allow (8 per address, 16 in all, 32 back-office streams): none
      // may hold a slot, so a GET after them still gets its stream.
      for (const { target, request } of streams) {
        for (let i = 0; i < 40; i++) await exchange(target, printable({ ...request, method: 'HEAD' }));
        const answer = await exchange(target, request);
        if (!answer.stream || answer.status !== 200) {
          problems.push(`${target.name}: a GET after 40 HEADs got no stream\n  answer: ${describeAnswer(answer)}`);
        }
      }
      if (problems.length) throw new Error(problems.join('\n'));
    });

    // Last: it leaves the world's console user braked from its one address (127.0.0.1) for a while.
    it("a burst of sign-ins for one e-mail checks at most the brake's number of passwords", { timeout: 60_000 }, async () => {
      const { email, password } = w.known.consoleUser;
      const signIn = (pass: string) =>
        exchange(
          ALL_ROUTES.find((t) => t.name === 'POST /api/admin/session')!,
          printable({
            method: 'POST',
            path: '/api/admin/session',
            headers: { 'content-type': 'application/json' },
            body: Buffer.from(JSON.stringify({ email, password: pass })),
          }),
        );
      for (const size of [60, 200]) {
        // The right password sits in the middle of the burst: by then the brake must be on.
        const passwords = Array.from({ length: size }, (_, i) => (i === size / 2 ? password : `wrong ${i} ${password}`));
        const started = Date.now();
        const answers = await Promise.all(passwords.map(signIn));
        const allowed = brakeAllowance(Date.now() - started);
        const statuses = answers.map((a) => a.status);
        const checked = statuses.filter((s) => s === 401 || s === 200).length;
        const counts: Record<number, number> = {};
        for (const s of statuses) counts[s] = (counts[s] ?? 0) + 1;
        const said = `burst of ${size}: ${JSON.stringify(counts)}, ${allowed} allowed`;
        // 408: the body did not arrive within the world's 300 ms (a loaded machine); such a request checks nothing.
        if (statuses.some((s) => ![200, 401, 408, 429].includes(s))) throw new Error(`a sign-in got neither 401 nor 429 (${said})`);
        if (checked > allowed) throw new Error(`${checked} passwords were checked, more than ${allowed} (${said})`);
        if (allowed === BRAKE_ATTEMPTS && answers[size / 2]!.status === 200)
          throw new Error(`the right password inside the burst was not braked (${said})`);
      }
    });
  });
}

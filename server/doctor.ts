/**
 * `npm run doctor`: checks a production set-up before going live, with the same environment as `npm run serve`, and
 * prints one PASS or FAIL line per check. It exits with 1 when any check fails. It never prints a secret: it names
 * variables, and every line is scrubbed of the configured secrets before it is printed.
 */
import { pathToFileURL } from 'node:url';
import { loadConfig, type Config } from './config';
import { createProviderClient, type ProviderClient } from './provider';
import {
  checkBalance,
  checkDatabase,
  checkLogin,
  checkOrders,
  checkOrigins,
  checkPublicUrl,
  checkSigningKey,
  checkSkew,
  checkWebhookRoute,
  checkWebhookSecret,
  fail,
  pass,
  why,
  type CheckResult,
} from './doctor-checks';
import { checkSecretsKey } from './doctor-secrets';
import { checkMerchantWebhook, checkStoredWebhookEndpoints } from './doctor-webhooks';

export { MAX_CLOCK_SKEW_SECONDS, MIN_SECRET_BITS, type CheckResult } from './doctor-checks';

export interface DoctorOptions {
  env?: NodeJS.ProcessEnv;
  /** Used for every outside call (provider, public address, order source, merchant webhook); tests route addresses with it. */
  fetch?: typeof fetch;
  print?: (line: string) => void;
  /** Per outside call. Default 10 s. */
  timeoutMs?: number;
}

export async function runDoctor(options: DoctorOptions = {}): Promise<{ ok: boolean; results: CheckResult[] }> {
  const env = options.env ?? process.env;
  const print = options.print ?? ((line: string) => console.log(line));
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const results: CheckResult[] = [];
  let secrets: string[] = [];
  const report = (result: CheckResult) => {
    results.push(result);
    let detail = result.detail;
    for (const secret of secrets) detail = detail.split(secret).join('[redacted]');
    print(`${result.ok ? 'PASS' : 'FAIL'}  ${result.name.padEnd(18)} ${detail}`);
  };

  let config: Config;
  try {
    config = loadConfig(env);
  } catch (error) {
    // The configuration's messages name variables and rules, never values.
    report(fail('configuration', why(error).replace(/\n\s*/g, ' ')));
    return finish(results, print);
  }
  secrets = secretsOf(config, env);
  report(pass('configuration', 'the environment is valid'));

  // Every answer's Date header, against our clock at its arrival.
  const skews: number[] = [];
  const recordingFetch = (async (input: string | URL | Request, init?: RequestInit) => {
    const sent = Date.now();
    const response = await fetchImpl(input, init);
    const date = Date.parse(response.headers.get('date') ?? '');
    if (Number.isFinite(date)) skews.push((date - (sent + Date.now()) / 2) / 1000);
    return response;
  }) as typeof fetch;

  let provider: ProviderClient | undefined;
  if (!config.provider) {
    report(fail('provider login', 'PROVIDER_BASE_URL is not set: the doctor checks the production set-up, not the embedded emulator'));
  } else {
    provider = createProviderClient({ ...config.provider, fetch: recordingFetch, timeoutMs, maxRetries: 0 });
    report(await checkLogin(provider));
  }
  report(provider ? await checkBalance(provider) : fail('balance', 'no provider to ask (see provider login)'));
  report(checkSkew(skews, provider !== undefined));
  const publicUrl = checkPublicUrl(config);
  report(publicUrl);
  report(publicUrl.ok ? await checkWebhookRoute(config, fetchImpl, timeoutMs) : fail('webhook route', 'no https public address to try'));
  report(checkWebhookSecret(config, env));
  report(checkSigningKey(config));
  report(await checkOrders(config, fetchImpl, timeoutMs));
  report(await checkDatabase(config));
  report(await checkSecretsKey(config));
  report(checkOrigins(env));
  report(await checkMerchantWebhook(config, fetchImpl, timeoutMs));
  for (const result of await checkStoredWebhookEndpoints(config, fetchImpl, timeoutMs)) report(result);
  return finish(results, print);
}

function finish(results: CheckResult[], print: (line: string) => void) {
  const failed = results.filter((r) => !r.ok).length;
  print(failed === 0 ? `All ${results.length} checks passed.` : `${failed} of ${results.length} checks failed.`);
  return { ok: failed === 0, results };
}

/** Every configured secret, longest first, for scrubbing lines (the access key too: it is half of the pair). */
function secretsOf(config: Config, env: NodeJS.ProcessEnv): string[] {
  const dbPassword = config.databaseUrl ? decodeURIComponent(new URL(config.databaseUrl).password) : '';
  return [
    env.PROVIDER_SECRET,
    env.PROVIDER_ACCESS_KEY,
    config.webhookSecret,
    config.webhookSigningKey,
    config.orders?.token,
    config.adminToken,
    config.secretsKey.toString('base64url'),
    dbPassword,
    ...(config.merchantWebhook?.secrets ?? []),
  ]
    .filter((s): s is string => typeof s === 'string' && s.length >= 4)
    .sort((a, b) => b.length - a.length);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { ok } = await runDoctor();
  process.exit(ok ? 0 : 1);
}

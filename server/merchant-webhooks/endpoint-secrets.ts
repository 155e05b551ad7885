/**
 * A stored endpoint's secrets sealed for the store and opened to sign (server/lib/sealer.ts, the endpoint's id as
 * context): opened only where a delivery or a test event is signed; the back office's list shows the hints kept apart.
 * A secret still clear (a row from before schema step 25 the start has not yet sealed) is used as it is.
 */
import { createSealer, isSealed, parseSecretsKey, type Sealer } from '../lib/sealer';
import { signingSecrets, type StoredWebhookEndpoint } from '../store/endpoints';

/** `secret` as the store keeps it for endpoint `id`: sealed, with its last four characters apart. */
export const sealEndpointSecret = (sealer: Sealer, id: string, secret: string) => ({
  secret: sealer.seal(secret, id),
  hint: secret.slice(-4),
});

/** The secrets endpoint signs with at `now`, opened; throws when one is under a key the sealer does not hold. */
export const openSigningSecrets = (sealer: Sealer, endpoint: StoredWebhookEndpoint, now: Date): string[] =>
  signingSecrets(endpoint, now).map((value) => (isSealed(value) ? sealer.open(value, endpoint.id) : value));

/**
 * The endpoints with their secrets opened to sign, but for one whose secret is under a key SECRETS_KEY does not hold:
 * its deliveries wait, pending, until the key is given (`npm run doctor` names the endpoint).
 */
export function signable(
  sealer: Sealer,
  endpoints: readonly StoredWebhookEndpoint[],
  now: Date,
  logger: { warn(...args: unknown[]): void },
): (StoredWebhookEndpoint & { secrets: string[] })[] {
  return endpoints.flatMap((endpoint) => {
    try {
      return [{ ...endpoint, secrets: openSigningSecrets(sealer, endpoint, now) }];
    } catch {
      logger.warn(`merchant webhook: endpoint ${endpoint.id}: a secret is sealed under a key not held (SECRETS_KEY); its deliveries wait`);
      return [];
    }
  });
}

/** The sealer of `keys` as the delivery thread is given them (base64url): the first seals, every one opens. */
export function sealerOfKeys(keys: readonly string[]): Sealer {
  const [current, ...previous] = keys.map(parseSecretsKey);
  return createSealer(current!, previous);
}

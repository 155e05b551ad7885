/**
 * The typed provider client (server/provider/client.ts), each of whose calls is timed into the metrics by its
 * operation, `pix.createCashIn`, `transactions.retrieve`, … (a resource and a verb: never an id), with its outcome.
 * The wire stays the client's; this only wraps its methods.
 */
import { ProviderError, ProviderNetworkError, type ProviderClient } from '../provider';
import type { Metrics, ProviderOutcome } from './metrics';

function outcomeOf(error: unknown): ProviderOutcome {
  if (error instanceof ProviderNetworkError) return 'unreachable';
  if (error instanceof ProviderError && error.status >= 400 && error.status < 500) return 'refused';
  return 'failed';
}

type Methods = Record<string, unknown>;

/** Every function of `resource` (and of its nested resources) timed under `prefix.name`. */
function timed(resource: Methods, prefix: string, metrics: Metrics): Methods {
  const wrapped: Methods = {};
  for (const [name, value] of Object.entries(resource)) {
    const operation = prefix ? `${prefix}.${name}` : name;
    if (typeof value === 'function') {
      const call = value as (...args: unknown[]) => Promise<unknown>;
      wrapped[name] = async (...args: unknown[]) => {
        const started = performance.now();
        const took = () => (performance.now() - started) / 1000;
        try {
          const answer = await call.apply(resource, args);
          metrics.providerRequest(operation, 'ok', took());
          return answer;
        } catch (error) {
          metrics.providerRequest(operation, outcomeOf(error), took());
          throw error;
        }
      };
    } else if (value && typeof value === 'object') {
      wrapped[name] = timed(value as Methods, operation, metrics);
    }
  }
  return wrapped;
}

/** `client` with every call timed; its token cache is the same object. */
export function timedProvider(client: ProviderClient, metrics: Metrics): ProviderClient {
  const { tokens, ...resources } = client;
  return { ...(timed(resources, '', metrics) as unknown as Omit<ProviderClient, 'tokens'>), tokens };
}

/**
 * Follows one checkout until it is settled: Server-Sent Events first, polling when the stream fails. An Expired
 * checkout is still followed, since a late payment can complete it.
 */
import { isCheckout, type Checkout, type CheckoutClient } from './api.js';
import { isFinal } from '../core/states.js';

export interface WatchCheckoutOptions {
  client: CheckoutClient;
  checkoutId: string;
  /** Called with every snapshot received, in order; never after a settled state or after `stop()`. */
  onCheckout: (checkout: Checkout) => void;
}

/** Stops watching: closes the stream, cancels the pending poll. Safe to call more than once. */
export type StopWatching = () => void;

/** Wait before the next poll: every 2 s during the first minute of polling, then every 10 s. */
export function pollDelay(pollingForMs: number): number {
  return pollingForMs < 60_000 ? 2_000 : 10_000;
}

export function watchCheckout({ client, checkoutId, onCheckout }: WatchCheckoutOptions): StopWatching {
  let stopped = false;
  let source: EventSource | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let inFlight: AbortController | undefined;

  const stop = () => {
    stopped = true;
    source?.close();
    clearTimeout(timer);
    inFlight?.abort();
  };

  const deliver = (checkout: Checkout) => {
    if (stopped || checkout.id !== checkoutId) return;
    onCheckout(checkout);
    if (isFinal(checkout.state)) stop();
  };

  // One request at a time: the next poll is scheduled only after the previous one settled.
  const startPolling = () => {
    const startedAt = Date.now();
    const tick = async () => {
      inFlight = new AbortController();
      try {
        deliver(await client.get(checkoutId, inFlight.signal));
      } catch {
        // A network blip or a 5xx is not a payment failure: keep waiting for the next poll.
      }
      if (!stopped) timer = setTimeout(() => void tick(), pollDelay(Date.now() - startedAt));
    };
    timer = setTimeout(() => void tick(), pollDelay(0));
  };

  if (typeof EventSource === 'undefined') {
    startPolling();
    return stop;
  }

  source = new EventSource(client.eventsUrl(checkoutId));
  source.addEventListener('status', (event) => {
    let data: unknown;
    try {
      data = JSON.parse((event as MessageEvent<string>).data);
    } catch {
      return;
    }
    if (isCheckout(data)) deliver(data);
  });
  // EventSource would retry on its own, but a proxy that kills streams would make it flap forever; polling is
  // predictable and the contract asks for it on any stream failure.
  source.addEventListener('error', () => {
    if (stopped) return;
    source?.close();
    source = undefined;
    startPolling();
  });
  return stop;
}

/**
 * The BFF alone in a process of its own (forked by ./alone.ts), as each floor is (./floor-process.ts): the BFF, its
 * stand-in provider (./stub-provider.ts) and the element's page; the emulator the stand-in records one completion
 * from is closed once it has. So the status goal's row and its floor each have an event loop and heap to
 * themselves, and neither shares them with the browser's driver. Messages out: `up` (the page's and the trigger's
 * addresses), `answer` (to a question, by its number); in: `subscribers` (streams open on the BFF's hub),
 * `transaction` (of a checkout), `close`.
 */
import { startTestBff, startTestServer } from '../../test/server/helpers/server';
import { anyOrder, recordCompletion, startPageServer, type Target } from './element-page';
import { startStubProvider } from './stub-provider';

export type AloneQuestion =
  { type: 'subscribers'; id: number } | { type: 'transaction'; id: number; checkoutId: string } | { type: 'close' };

const send = (message: object) => process.send!(message);

/** The BFF the page points at, once it is up. */
const target: { current?: Target } = {};
const pages = await startPageServer(() => target.current!);
const env = { ALLOWED_ORIGINS: pages.url, CHECKOUT_RATE_PER_MINUTE: '0', SSE_MAX_PER_CLIENT: '1000' };
const emulator = await startTestServer({ env, start: { orders: anyOrder } });
const stub = await startStubProvider(`${emulator.url}/sandbox`);
const alone = await startTestBff({
  env: { PROVIDER_BASE_URL: `${stub.url}/v1`, PROVIDER_ACCESS_KEY: 'sandbox-access-key', PROVIDER_SECRET: 'sandbox-secret', ...env },
  start: { orders: anyOrder },
});
target.current = { url: alone.url, token: (orderId) => alone.orderTokenFor(orderId) };
await recordCompletion(alone, emulator, stub);
if (!stub.canComplete()) throw new Error('bench: the stand-in provider did not record a completion');
// From here the stand-in answers everything the status path asks; the emulator's threads and timers go.
await emulator.close();

process.on('message', (message: AloneQuestion) => {
  if (message.type === 'subscribers') send({ type: 'answer', id: message.id, value: alone.hub.subscriberCount() });
  else if (message.type === 'transaction')
    void alone.store
      .getCheckout(message.checkoutId)
      .then((checkout) => send({ type: 'answer', id: message.id, value: checkout?.transactionId ?? null }));
  else if (message.type === 'close')
    void (async () => {
      await alone.close();
      await stub.close();
      await pages.close();
      process.exit(0);
    })();
});
send({ type: 'up', pagesUrl: pages.url, triggerUrl: stub.triggerUrl });

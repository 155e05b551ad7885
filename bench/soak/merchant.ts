/**
 * The merchant's backend of `npm run soak`: a plain node:http receiver of the signed webhooks (MERCHANT_WEBHOOK_URL)
 * that verifies every copy with the Standard Webhooks library from npm (never our own signer), and, while the faults
 * are on, answers some with a 5xx, holds some past the BFF's 10 s delivery timeout, drops the connection (before or
 * after reading the body), answers some slowly, and has the child BFF killed (`kill -9`) while its delivery waits here
 * for an answer. Each instance posts to its own path (`/a`, `/b`), so the receiver knows which one is sending.
 *
 * At the end, ./merchant-compare.ts compares what arrived with the provider's paid transactions and with the events
 * in our store.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { between, chance } from './odds';
import { sleep, type Faults } from './proxy';

/** The BFF gives up on a delivery after this (server/events/delivery.ts; no tuning knob): a timeout is held longer. */
export const DELIVERY_TIMEOUT_MS = 10_000;
const HOLD_PAST_TIMEOUT_MS = DELIVERY_TIMEOUT_MS + 1_000;

export interface VerifiedEvent {
  id: string;
  type: string;
  createdAt: string;
  data: Record<string, unknown>;
}

/** One request the receiver got. */
export interface Receipt {
  /** The instance that sent it (its path). */
  instance: string;
  /** Date.now() once the whole body was in; undefined when the connection was dropped before the body. */
  at: number | undefined;
  webhookId: string | undefined;
  body: string;
  /** The event, when the copy verified. */
  event: VerifiedEvent | undefined;
  /** Why it did not verify. */
  error: string | undefined;
  /** What the receiver did with it. */
  outcome: string;
  /** A 2xx was written before the BFF's timeout, on a connection still open: the sender heard it (unless it died). */
  acknowledged: boolean;
}

export interface MerchantReceiverOptions {
  secret: string;
  faults: Faults;
  /** Kills the named instance now (when it is the child); false when it can't be killed at the moment. */
  kill(instance: string): boolean;
}

export async function startMerchantReceiver(options: MerchantReceiverOptions) {
  const { faults } = options;
  const webhook = new Webhook(options.secret);
  const receipts: Receipt[] = [];
  /** Event ids in flight from the child when it was killed, with the time of the kill. */
  const killedDuring = new Map<string, number>();
  let holding = 0;

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const instance = /^\/([a-z])\b/.exec(req.url ?? '')?.[1] ?? '?';
    const webhookId = typeof req.headers['webhook-id'] === 'string' ? req.headers['webhook-id'] : undefined;
    if (faults.enabled && chance(0.02)) {
      faults.add('merchant connection dropped before the body');
      receipts.push({
        instance,
        at: undefined,
        webhookId,
        body: '',
        event: undefined,
        error: undefined,
        outcome: 'dropped before the body',
        acknowledged: false,
      });
      req.socket.destroy();
      return;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const receipt: Receipt = {
      instance,
      at: Date.now(),
      webhookId,
      body,
      event: undefined,
      error: undefined,
      outcome: '',
      acknowledged: false,
    };
    receipts.push(receipt);
    try {
      receipt.event = webhook.verify(body, req.headers as Record<string, string>) as VerifiedEvent;
    } catch (error) {
      receipt.error = error instanceof Error ? error.message : String(error);
    }
    const started = Date.now();
    let gone = false;
    res.once('close', () => {
      if (!res.writableFinished) gone = true;
    });
    const answer = (status: number, outcome: string) => {
      receipt.outcome = outcome;
      if (gone || res.destroyed) {
        receipt.outcome += ' (the sender was gone)';
        return;
      }
      const inTime = Date.now() - started < DELIVERY_TIMEOUT_MS;
      res.once('finish', () => {
        receipt.acknowledged = status >= 200 && status < 300 && inTime;
      });
      res.writeHead(status, { 'content-type': 'text/plain' }).end(status < 300 ? 'ok' : 'no');
    };

    if (!receipt.event) return answer(400, 'refused: did not verify');
    if (!faults.enabled) return answer(204, '204');
    if (instance === 'b' && chance(killedDuring.size === 0 ? 0.25 : 0.02) && options.kill('b')) {
      // The child dies while this delivery waits for its answer: its lease must run out and another run deliver it.
      faults.add('kill -9 of a BFF mid-delivery');
      killedDuring.set(receipt.event.id, Date.now());
      receipt.outcome = 'the sender was killed (kill -9) before the answer';
      setTimeout(() => req.socket.destroy(), 2_000).unref();
      return;
    }
    if (chance(0.08)) {
      faults.add('merchant 5xx');
      const status = [500, 502, 503][Math.floor(Math.random() * 3)]!;
      return answer(status, String(status));
    }
    if (chance(0.03)) {
      faults.add('merchant connection dropped after the body');
      receipt.outcome = 'dropped after the body';
      req.socket.destroy();
      return;
    }
    if (holding === 0 && chance(0.01)) {
      // One at a time: a held request keeps its sender's whole batch waiting for the 10 s.
      faults.add('merchant timeout (answered after 11 s)');
      holding++;
      await sleep(HOLD_PAST_TIMEOUT_MS);
      holding--;
      return answer(204, '204 after 11 s (past the timeout)');
    }
    if (chance(0.05)) {
      faults.add('merchant slow answer (0.5–3 s)');
      await sleep(between(500, 3_000));
      return answer(204, 'slow 204');
    }
    return answer(204, '204');
  };

  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent && !res.destroyed) res.writeHead(500).end();
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    receipts,
    killedDuring,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * The payment link: a hosted page, `GET /pay/<orderId>#t=<orderToken>`, that a merchant sends by WhatsApp or e-mail
 * (`npm run admin -- link <orderId>` prints one). The element alone on a page, with the shop's name, under a strict
 * policy of its own: scripts and styles from this origin only, besides the page's own script and stylesheet, which are
 * written into the page and allowed by their hashes (nothing else inline runs or applies); requests to this origin only.
 *
 * The order token rides in the fragment, so it never reaches a server log or a `Referer`. The page's own small script
 * (`pay-page/pay.js`, in the page itself) takes it from there (then keeps it for the tab in sessionStorage and wipes it
 * from the address, so neither a reload, a shared address nor the OpenFinance return address carries it), adds
 * `<pix-checkout>` with it, sends the element's order lookup, and asks `GET /pay/_/shop/<orderId>` (the token in
 * `X-Order-Token`) for the shop's name: the order source's `shopName`, when it gives one. Without the order's token
 * nothing about the order is told, so the page itself is the same for every well-formed order id and says only
 * "Pagamento".
 *
 * The page draws nothing of the order on the server, QR included, by choice: the server never sees the token, and
 * taking it from a query string instead would put it in access logs (README, "Order token": never in a query string),
 * while making the shopper's PIX checkout on a GET would let every link preview (WhatsApp fetches the address to
 * draw one) start the payment and take the choice of method from the shopper. What the page does instead is start
 * the order lookup while it is parsed, in parallel with the element's script: the shopper's first QR costs the page,
 * then the element's script and the lookup together, then the create (three round trips; `npm run bench`,
 * BENCH_ONLY=phone). The page goes out compressed as the browser accepts.
 *
 * The element is the built one under `/widget`, by its content-hashed name with its SRI hash from
 * `dist/widget/integrity.json` (read again when the build changes). Only GET and HEAD are answered; anything else, and
 * an order id of the wrong shape, falls through to the 404 of the app (an order id is what `POST /api/checkouts`
 * takes: letters, digits and `. _ : -`, at most 64).
 */
import { Hono, type Context } from 'hono';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { verifyOrderToken } from './bff/order-token';
import { ORDER_TOKEN_HEADER } from './bff/routes/orders';
import type { Clock } from './lib/clock';
import { compress, type Encoding } from './lib/compress';
import { inlineSource } from './lib/inline-source';
import type { OrderResolver } from './payments/orders';
import { pickEncoding, type WidgetManifest } from './widget';

/** The shape of an order id, as `POST /api/checkouts` takes it. */
export const ORDER_ID = /^[\w.:-]{1,64}$/;

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/** The page's own script and stylesheet, written into it: a phone waits for no request of theirs. */
const SCRIPT = inlineSource(readFileSync(here('./pay-page/pay.js'), 'utf8'));
const STYLE = inlineSource(readFileSync(here('./pay-page/pay.css'), 'utf8'));

/**
 * The page's policy: nothing inline but the page's own script and stylesheet (by their hashes), nothing from
 * elsewhere (the QR code is an image drawn from a `data:` address).
 */
export const PAY_PAGE_CSP =
  `default-src 'none'; script-src 'self' ${SCRIPT.hash}; style-src 'self' ${STYLE.hash}; img-src 'self' data:; ` +
  "connect-src 'self'; form-action 'none'; frame-ancestors 'none'; base-uri 'none'; object-src 'none'";

/** The page's name when the order source gives no shop name. */
export const NEUTRAL_TITLE = 'Pagamento';

export interface PayPageOptions {
  /** The built element (`dist/widget`), whose `integrity.json` names the bundle and its hash. */
  widgetDir: string;
  orders: OrderResolver;
  /** The key of the order tokens, as the BFF's. */
  orderTokenSecret: string;
  clock: Clock;
  /** Where to say that the element is not built (once). */
  warn?: (line: string) => void;
}

/**
 * `body(encoding)` in the client's preferred encoding, with the headers that say which: a phone on a slow network
 * waits for every byte of the page, its script and stylesheet included.
 */
function compressed(c: Context, body: (encoding: Encoding) => Buffer, status: 200, headers: Record<string, string>) {
  const encoding = pickEncoding(c.req.header('accept-encoding'), ['br', 'gzip']);
  const all = { ...headers, vary: 'Accept-Encoding', ...(encoding === 'identity' ? {} : { 'content-encoding': encoding }) };
  return c.body(new Uint8Array(body(encoding)), status, all);
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!);

/** The page around `main` (already escaped), with the page's stylesheet, and `head` and `end` (scripts) added. */
function page(main: string, { head = '', end = '' } = {}): string {
  return `<!doctype html>
<html lang="pt-BR">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <meta name="referrer" content="no-referrer" />
    <meta name="robots" content="noindex" />
    <title>${NEUTRAL_TITLE}</title>
    <link rel="icon" href="data:," />
    <style>${STYLE.text}</style>${head}
  </head>
  <body>
    <main class="pay">
${main}
    </main>${end}
  </body>
</html>
`;
}

/**
 * The payment page of `orderId`: the element is added by the page's script, the paragraph is its fallback. The
 * script is a classic one after the slot, so it runs as soon as the parser reaches it: before the element's module
 * (which waits for the end of the page), and with no stylesheet to wait for.
 */
function payPageHtml(orderId: string, widget: WidgetManifest): string {
  const id = escapeHtml(orderId);
  return page(
    `      <h1 id="pay-title">${NEUTRAL_TITLE}</h1>
      <div id="pay-slot" data-order-id="${id}">
        <p class="pay-fallback">Carregando o pagamento… Se ele não aparecer, recarregue a página ou peça um novo link à loja.</p>
      </div>`,
    {
      head: `
    <script type="module" src="/widget/${escapeHtml(widget.file)}" integrity="${escapeHtml(widget.integrity)}" crossorigin="anonymous"></script>`,
      end: `
    <script>${SCRIPT.text}</script>`,
    },
  );
}

const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': PAY_PAGE_CSP,
  // The page names the bundle by its hash: a new build must be seen at once.
  'cache-control': 'no-cache',
} as const;

export function payPage({ widgetDir, orders, orderTokenSecret, clock, warn }: PayPageOptions) {
  const manifestPath = join(widgetDir, 'integrity.json');
  let loaded: { mtimeMs: number; manifest: WidgetManifest } | undefined;
  let warned = false;

  /** The element's manifest, read again when the build changes; undefined while there is none. */
  function manifest(): WidgetManifest | undefined {
    try {
      const { mtimeMs } = statSync(manifestPath);
      if (loaded?.mtimeMs !== mtimeMs) loaded = { mtimeMs, manifest: JSON.parse(readFileSync(manifestPath, 'utf8')) as WidgetManifest };
      return loaded.manifest;
    } catch {
      // Missing, or a build in progress: the last one read, if any.
      return loaded?.manifest;
    }
  }

  const notFound = (c: Context) =>
    c.body(
      page(`      <h1>Link de pagamento inválido</h1>
      <p>Este endereço não é de um pagamento. Confira o link que a loja enviou ou peça um novo.</p>`),
      404,
      PAGE_HEADERS,
    );
  return (
    new Hono()
      // The page's own folder holds only the shop's name: nothing else there is a payment.
      .on(['GET', 'HEAD'], '/_/:name', notFound)
      .on(['GET', 'HEAD'], '/_/shop/:orderId', async (c) => {
        const orderId = c.req.param('orderId');
        const token = c.req.header(ORDER_TOKEN_HEADER);
        // Nothing about an order without its token: the element itself says what is wrong with a missing or bad one.
        if (!ORDER_ID.test(orderId) || !verifyOrderToken(orderTokenSecret, orderId, token, clock.now()).ok) return c.body(null, 204);
        const order = await orders.resolve(orderId).catch(() => undefined);
        const shopName = order?.shopName?.trim();
        if (!shopName) return c.body(null, 204);
        return c.json({ shopName }, 200, { 'cache-control': 'no-store' });
      })
      .on(['GET', 'HEAD'], '/:orderId', (c) => {
        const orderId = c.req.param('orderId');
        if (!ORDER_ID.test(orderId) || orderId === '_') return notFound(c);
        const widget = manifest();
        if (!widget) {
          if (!warned) warn?.('dist/widget is missing: the payment links (/pay/<orderId>) need `npm run build`.');
          warned = true;
          return c.body(
            page(`      <h1>${NEUTRAL_TITLE}</h1>
      <p>O pagamento está indisponível no momento. Tente de novo em alguns minutos.</p>`),
            503,
            { ...PAGE_HEADERS, 'retry-after': '60' },
          );
        }
        return compressed(c, (encoding) => compress(payPageHtml(orderId, widget), encoding, 5), 200, PAGE_HEADERS);
      })
  );
}

/**
 * The demo's checkout page, `/checkout.html?order=<orderId>#order-token=<token>`, written by the server from
 * demo/public/checkout.html so that the element's script is the only file a shopper waits for before the QR
 * (`npm run bench`, BENCH_ONLY=phone):
 *
 * - the order's summary and `<pix-checkout>` for it are in the page (demo/checkout-order.ts), so the element upgrades
 *   as soon as its script has run and the summary needs no request;
 * - the page's inline script (checkout-inline.js, built from demo/pages/checkout-inline.ts) comes first in its head:
 *   it takes the order token from the fragment and sends the element's order lookup before anything else of the page
 *   is parsed, hands both to the element once the page is parsed, and loads the page's own module (the sandbox panel,
 *   the delivery log) only once the element has drawn its first checkout or the page has been idle a while;
 * - the stylesheets the template links are written into the page, and the element's script is named by its hashed
 *   name with its integrity (dist/widget/integrity.json).
 *
 * The policy allows the inline script and styles by their hashes and nothing else inline. Reading an order changes
 * nothing: a GET never starts a checkout. Every file is read again when it changes.
 */
import type { Context } from 'hono';
import { join } from 'node:path';
import { inlineSource, type InlineSource } from '../server/lib/inline-source';
import { ORDER_ID } from '../server/pay-page';
import { escapeHtml } from '../server/sandbox/format';
import type { WidgetManifest } from '../server/widget';
import { orderProblem, orderSection } from './checkout-order';
import { demoPagePolicy } from './page-policy';
import { fileReader, sendFile, servedFile, type ServedFile } from './static-files';
import type { DemoStore } from './store';

/** Where checkout.html takes the order's summary and element. */
export const ORDER_MARK = '<!-- checkout-order -->';

/** Where checkout.html takes its inline script, at the top of its head (on a page with an order only). */
export const INLINE_SCRIPT_MARK = '<!-- checkout-inline.js -->';

/** A stylesheet the template links, which the server writes into the page. */
const STYLESHEET = /<link rel="stylesheet" href="([\w.-]+\.css)" \/>/g;

/** The element's script as the template names it (its fixed name, without integrity). */
const WIDGET_SCRIPT = '<script type="module" src="/widget/pix-checkout.js"></script>';

export interface CheckoutPageOptions {
  /** demo/public, where checkout.html and its stylesheets are. */
  publicDir: string;
  /** dist/demo/assets, where the build leaves checkout-inline.js. */
  assetsDir: string;
  /** dist/widget, whose integrity.json names the element's bundle and its hash. */
  widgetDir: string;
  /** The shop's orders and what it knows of their payment. */
  demo: Pick<DemoStore, 'getOrder' | 'orderStatus'>;
}

interface Shell {
  /** The files it was made from: made again when one of them changed. */
  from: (ServedFile | undefined)[];
  /** The template with its stylesheets written in and the element's script named by its hash. */
  html: string;
  script: InlineSource | undefined;
  policy: string;
}

/** The element's bundle as the build's manifest names it; undefined while a build is writing it. */
function widgetOf(manifest: ServedFile): WidgetManifest | undefined {
  try {
    return JSON.parse(manifest.bytes.toString('utf8')) as WidgetManifest;
  } catch {
    return undefined;
  }
}

export function checkoutPage({ publicDir, assetsDir, widgetDir, demo }: CheckoutPageOptions) {
  const read = fileReader();
  let shell: Shell | undefined;

  /** The page around the order, made again when a file of it changed; undefined when there is no template. */
  function currentShell(): Shell | undefined {
    const page = read(join(publicDir, 'checkout.html'));
    if (!page) return undefined;
    const template = page.bytes.toString('utf8');
    const sheets = [...template.matchAll(STYLESHEET)].map(([, name]) => read(join(publicDir, name!)));
    const script = read(join(assetsDir, 'checkout-inline.js'), 'text/javascript; charset=utf-8');
    const manifest = read(join(widgetDir, 'integrity.json'), 'application/json');
    const from = [page, script, manifest, ...sheets];
    if (shell && shell.from.length === from.length && shell.from.every((file, i) => file === from[i])) return shell;
    const styles: InlineSource[] = [];
    let html = template.replace(STYLESHEET, (link, name: string) => {
      const sheet = read(join(publicDir, name));
      if (!sheet) return link;
      styles.push(inlineSource(sheet.bytes.toString('utf8').trim()));
      return `<style>${styles.at(-1)!.text}</style>`;
    });
    const widget = manifest && widgetOf(manifest);
    if (widget)
      html = html.replace(
        WIDGET_SCRIPT,
        `<script type="module" src="/widget/${escapeHtml(widget.file)}" integrity="${escapeHtml(widget.integrity)}" crossorigin="anonymous"></script>`,
      );
    // Without a build the page still goes out, its element without the order token: the element says so itself.
    const inline = script && inlineSource(script.bytes.toString('utf8').trim());
    const policy = demoPagePolicy(
      inline ? [inline.hash] : [],
      styles.map((style) => style.hash),
    );
    shell = { from, html, script: inline, policy };
    return shell;
  }

  /** The order part of the page for the address's `order`, whether the page has an element, and its status. */
  function order(c: Context): { section: string; element: boolean; status: 200 | 404 } {
    const orderId = c.req.query('order');
    if (!orderId) return { section: orderProblem('Nenhum pedido informado no endereço.'), element: false, status: 200 };
    const found = ORDER_ID.test(orderId) ? demo.getOrder(orderId) : undefined;
    if (!found) return { section: orderProblem('Pedido não encontrado.'), element: false, status: 404 };
    return { section: orderSection(found, demo.orderStatus(found.orderId)), element: true, status: 200 };
  }

  return (c: Context, next: () => Promise<void>) => {
    const page = currentShell();
    if (!page) return next();
    const { section, element, status } = order(c);
    // The script only where there is an element to hand the token to: a page with no order sends nothing.
    const script = element && page.script ? `<script>${page.script.text}</script>` : '';
    const html = page.html.replace(INLINE_SCRIPT_MARK, () => script).replace(ORDER_MARK, () => section);
    const headers = { 'content-security-policy': page.policy };
    // Compressed for this answer alone: brotli's quality 5 costs a fraction of 11's time for a few bytes more.
    return sendFile(c, servedFile(Buffer.from(html), 'text/html; charset=utf-8'), { headers, status, quality: 5 });
  };
}

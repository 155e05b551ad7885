/**
 * The demo's checkout page, `/checkout.html`: the page of demo/public with its inline script (checkout-inline.js,
 * built from demo/pages/checkout-inline.ts) written in where the page marks it, at the top of its head, and the page's
 * policy allowing that script by its hash. The script sends the element's order lookup and the read of the order's
 * summary while the parser is still in the head: both travel with the page's stylesheets and scripts instead of
 * after them, a round trip fewer before the QR (`npm run bench`, BENCH_ONLY=phone). It comes before the stylesheets
 * because a classic script waits for the stylesheets above it. The order token stays in the fragment, which no
 * request carries: the script takes it from there in the browser. Page and script are read again when they change.
 */
import type { Context } from 'hono';
import { join } from 'node:path';
import { inlineSource } from '../server/lib/inline-source';
import { demoPagePolicy } from './page-policy';
import { fileReader, sendFile, servedFile, type ServedFile } from './static-files';

/** Where checkout.html takes its inline script. */
export const INLINE_SCRIPT_MARK = '<!-- checkout-inline.js -->';

export interface CheckoutPageOptions {
  /** demo/public, where checkout.html is. */
  publicDir: string;
  /** dist/demo/assets, where the build leaves checkout-inline.js. */
  assetsDir: string;
}

export function checkoutPage({ publicDir, assetsDir }: CheckoutPageOptions) {
  const read = fileReader();
  let built: { page: ServedFile; script: ServedFile | undefined; served: ServedFile; policy: string } | undefined;

  /** The page as served, made again when the page or its script changed; undefined when there is no page. */
  function current() {
    const page = read(join(publicDir, 'checkout.html'));
    if (!page) return undefined;
    const script = read(join(assetsDir, 'checkout-inline.js'), 'text/javascript; charset=utf-8');
    if (built?.page === page && built.script === script) return built;
    // Without a build the page goes out as it is, and its module starts the requests itself (checkout-early.ts).
    const inline = script && inlineSource(script.bytes.toString('utf8').trim());
    const html = page.bytes.toString('utf8').replace(INLINE_SCRIPT_MARK, inline ? `<script>${inline.text}</script>` : '');
    built = { page, script, served: servedFile(Buffer.from(html), page.type), policy: demoPagePolicy(inline ? [inline.hash] : []) };
    return built;
  }

  return (c: Context, next: () => Promise<void>) => {
    const page = current();
    if (!page) return next();
    return sendFile(c, page.served, { 'content-security-policy': page.policy });
  };
}

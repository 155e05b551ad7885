/**
 * The policy of the demo's pages: strict, since the element must work without eval or inline code. The only inline
 * scripts and styles that apply are those a page names by their hash (`'sha256-…'`, server/lib/inline-source.ts):
 * the checkout page's own (demo/checkout-page.ts).
 */
export function demoPagePolicy(inlineScripts: readonly string[] = [], inlineStyles: readonly string[] = []): string {
  return (
    `default-src 'self'; script-src ${["'self'", ...inlineScripts].join(' ')}; style-src ${["'self'", ...inlineStyles].join(' ')}; ` +
    "img-src 'self' data:; " +
    "connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'; object-src 'none'"
  );
}

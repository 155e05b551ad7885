/**
 * The OpenFinance bank page at `/v1/system/checkout/init/{uuid}/{transactionId}`: GET shows it, POST applies the
 * payer's decision, sends the webhook (with background retries) and answers 303 to the initiation's redirectUrl.
 */
import { Hono, type Context } from 'hono';
import type { SandboxContext } from '../context';
import { approvalPage, CHECKOUT_CSS, finishedPage, notFoundPage } from '../checkout-page';
import { SANDBOX_PAYER } from '../defaults';
import { methodNotAllowed } from '../errors';
import type { StoredTransaction } from '../model';
import { formatError } from '../request';
import { isFinalTransactionState } from '../../../core/states';

/** No script may run, styles come only from our stylesheet, and the form may only lead back to the store. */
function secure(c: Context, tx?: StoredTransaction) {
  let formTargets = "'self'";
  if (tx?.internal.redirectUrl) formTargets += ` ${new URL(tx.internal.redirectUrl).origin}`;
  c.header(
    'content-security-policy',
    `default-src 'none'; style-src 'self'; img-src 'self'; form-action ${formTargets}; base-uri 'none'; frame-ancestors 'none'`,
  );
  c.header('x-content-type-options', 'nosniff');
  c.header('referrer-policy', 'no-referrer');
  c.header('cache-control', 'no-store');
}

export function bankPageRoutes(ctx: SandboxContext) {
  /** The transaction behind the address, only when both the uuid and the id match an OpenFinance initiation. */
  const find = (c: Context) => {
    const tx = ctx.store.get(c.req.param('transactionId') ?? '');
    return tx?.kind === 'openfinance' && tx.internal.checkoutUuid === c.req.param('uuid') ? tx : undefined;
  };

  return new Hono()
    .get('/style.css', (c) =>
      c.body(CHECKOUT_CSS, 200, { 'content-type': 'text/css; charset=utf-8', 'cache-control': 'public, max-age=300' }),
    )
    .get('/init/:uuid/:transactionId', (c) => {
      const tx = find(c);
      secure(c, tx);
      if (!tx) return c.html(notFoundPage(), 404);
      return c.html(isFinalTransactionState(tx.record.transaction.state) ? finishedPage(tx) : approvalPage(tx));
    })
    .post('/init/:uuid/:transactionId', async (c) => {
      const tx = find(c);
      secure(c, tx);
      if (!tx) return c.html(notFoundPage(), 404);
      const form: Record<string, unknown> = await c.req.parseBody().catch(() => ({}));
      const decision = form.decision;
      if (decision !== 'approve' && decision !== 'fail')
        throw formatError('/decision', 'must be approve or fail', 'enum', { allowedValues: ['approve', 'fail'] });
      if (isFinalTransactionState(tx.record.transaction.state)) return c.html(finishedPage(tx), 409);
      const taxNumber = tx.record.payment.payer?.cpf ?? SANDBOX_PAYER.taxNumber;
      const after =
        decision === 'approve'
          ? await ctx.lifecycle.commit(tx.record.transaction.id, 'Completed', {
              counterparty: { name: SANDBOX_PAYER.name, taxNumber },
            })
          : await ctx.lifecycle.commit(tx.record.transaction.id, 'Error');
      // Someone else (a sandbox operation) may have finished it first; the payer then sees that outcome.
      if (after && after.record.transaction.state !== (decision === 'approve' ? 'Completed' : 'Error'))
        return c.html(finishedPage(after), 409);
      return c.redirect(tx.internal.redirectUrl ?? '/', 303);
    })
    .all('/init/:uuid/:transactionId', methodNotAllowed)
    .all('/style.css', methodNotAllowed);
}

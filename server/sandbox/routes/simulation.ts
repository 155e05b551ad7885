/**
 * Sandbox operations that decide a transaction's outcome. PIX: complete, error, cancel, reverse (POST or PUT, as
 * the spec states both). OpenFinance: complete, error (POST). Each succeeds only if its webhook is delivered.
 */
import { Hono, type Context } from 'hono';
import { isValidCnpj, isValidCpf } from '../../../core/cpf';
import { requireCents } from '../../../core/money';
import { decimalString, sandboxCompleteRequest, type TransactionState } from '../../provider/schemas';
import { checkAmount } from '../checks';
import type { SandboxContext } from '../context';
import { SANDBOX_PAYER } from '../defaults';
import { methodNotAllowed, operationError } from '../errors';
import type { StoredTransaction, TransactionKind } from '../model';
import type { Settlement } from '../records';
import { formatError, readBody, readPartnerJson, validate } from '../request';

/** The spec's body plus `amount`, our addition for editable-value cash-ins (what the payer chose to pay). */
const completeBody = sandboxCompleteRequest.extend({ amount: decimalString.optional() });
type CompleteBody = ReturnType<typeof completeBody.parse>;
/**
 * The same body for a cash-in made without a payer: the contract's `name` and `taxNumber` are "required only for
 * anonymous PIX", so they are required here, and a missing one is the usual 400 `required` at the root.
 */
const anonymousCompleteBody = completeBody.required({ name: true, taxNumber: true });

const PIX: readonly TransactionKind[] = ['pix-cashin', 'pix-cashout'];
const OPENFINANCE: readonly TransactionKind[] = ['openfinance'];

/** Who paid and how much, from the transaction and the optional complete body. */
function settlementFor(body: CompleteBody, amountCents: number | undefined) {
  return (tx: StoredTransaction): Settlement => {
    const { payment } = tx.record;
    if (tx.kind === 'pix-cashout') return { counterparty: { name: payment.receiver?.name ?? '*', taxNumber: payment.receiver?.cpf ?? '' } };
    // Known only now, with the transaction: so an unknown id is still a 404 and a final one a 409 first.
    if (tx.kind === 'pix-cashin' && tx.internal.anonymous) validate(anonymousCompleteBody, body);
    if (amountCents !== undefined && !tx.internal.editable && amountCents !== requireCents(tx.record.transaction.amount))
      throw operationError('AmountNotEditable', 'Only an editable-value cash-in can be paid with another amount');
    return {
      counterparty: {
        // The body names the effective payer; without it, the requested payer paid (an OpenFinance initiation names
        // only the payer's CPF, so its payer gets the sandbox's stand-in name).
        name: body.name ?? payment.payer?.name ?? SANDBOX_PAYER.name,
        taxNumber: body.taxNumber ?? payment.payer?.cpf ?? SANDBOX_PAYER.taxNumber,
      },
      ...(amountCents !== undefined && tx.internal.editable ? { amountCents } : {}),
    };
  };
}

function respond(c: Context, tx: StoredTransaction) {
  const t = tx.record.transaction;
  const data = { transactionId: t.id, transactionState: t.state, ...(t.state === 'Error' ? { stateErrorCause: t.stateErrorCause } : {}) };
  return c.json({ statusCode: 'Done', data });
}

export function simulationRoutes(ctx: SandboxContext) {
  const { lifecycle } = ctx;
  const complete = (kinds: readonly TransactionKind[]) => async (c: Context) => {
    const body = await readBody(c, completeBody, { optional: true });
    if (body.taxNumber !== undefined && !isValidCpf(body.taxNumber) && !isValidCnpj(body.taxNumber))
      throw formatError('/taxNumber', 'must be a valid CPF or CNPJ');
    const amountCents = body.amount === undefined ? undefined : checkAmount(body.amount, '/amount');
    const id = c.req.param('transactionId')!;
    return respond(c, await lifecycle.simulate({ id, to: 'Completed', kinds, settle: settlementFor(body, amountCents) }));
  };
  // These operations take no body; one sent anyway is read (so a malformed one gets its 400) and ignored.
  const plain = (to: TransactionState, kinds: readonly TransactionKind[]) => async (c: Context) => {
    await readPartnerJson(c, { optional: true });
    return respond(c, await lifecycle.simulate({ id: c.req.param('transactionId')!, to, kinds }));
  };

  return new Hono()
    .on(['POST', 'PUT'], '/transactions/complete/:transactionId', complete(PIX))
    .on(['POST', 'PUT'], '/transactions/error/:transactionId', plain('Error', PIX))
    .on(['POST', 'PUT'], '/transactions/cancel/:transactionId', plain('Cancelled', PIX))
    .on(['POST', 'PUT'], '/transactions/reverse/:transactionId', plain('Reversed', PIX))
    .post('/payment-initiation/complete/:transactionId', complete(OPENFINANCE))
    .post('/payment-initiation/error/:transactionId', plain('Error', OPENFINANCE))
    .all('/transactions/:operation{complete|error|cancel|reverse}/:transactionId', methodNotAllowed)
    .all('/payment-initiation/:operation{complete|error}/:transactionId', methodNotAllowed);
}

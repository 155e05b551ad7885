/**
 * The sandbox's stand-in for the provider's administration portal, at `/sandbox/admin`: register receivers and
 * their accounts, review them, approve or reject payment requests, set the company webhook, see everything. Not
 * part of the partner API. Every call needs the sandbox's admin key in `x-sandbox-admin-key`, and no answer
 * carries a secret: the company webhook's header value is only said to be set.
 */
import { Hono, type MiddlewareHandler } from 'hono';
import { z } from 'zod';
import { taxNumberDigits, isValidCnpj } from '../../../../core/cpf';
import { safeEqual } from '../../../lib/secrets';
import { webhookConfig, type WebhookConfig } from '../../../provider/schemas';
import { checkWebhook, urlsAsSent } from '../../checks';
import type { SandboxContext } from '../../context';
import { SANDBOX_REVIEWER } from '../../defaults';
import { EmulatorError, methodNotAllowed, notFound } from '../../errors';
import { newId } from '../../records';
import { formatError, readBody } from '../../request';
import { downloadHeaders } from '../document-types';
import type { Decider } from '../requests';
import { detailView } from '../views';

export const ADMIN_KEY_HEADER = 'x-sandbox-admin-key';

const newReceiver = z.object({ companyFantasyName: z.string().min(1).max(120), companyCNPJ: z.string().min(1) });
const newAccount = z.object({
  bankCode: z.string().regex(/^\d{3}$/, 'a three-digit bank code'),
  bankName: z.string().min(1).max(120),
  accountAgency: z.string().regex(/^\d{1,6}(-?[\dxX])?$/, 'agency digits'),
  accountNumber: z.string().regex(/^\d{1,20}(-?[\dxX])?$/, 'account digits'),
  /** Default: the receiver's CNPJ, for both. */
  accountOwnerDocNumber: z.string().optional(),
  pixKey: z.string().optional(),
});
const review = z.object({ reviewNote: z.string().max(500).optional() });
const decision = z.object({ comment: z.string().max(500).optional(), userFullName: z.string().min(1).max(120).optional() });

/** Every portal stand-in needs the sandbox admin key (401 in the provider's envelope otherwise); answers are not cached. */
export const requireAdminKey =
  (key: string): MiddlewareHandler =>
  async (c, next) => {
    if (!safeEqual(c.req.header(ADMIN_KEY_HEADER), key))
      throw new EmulatorError(401, {
        name: 'AuthenticationError',
        message: `The ${ADMIN_KEY_HEADER} header is missing or wrong`,
        code: 'AuthenticationError',
        details: { reason: 'AdminKeyInvalid' },
      });
    await next();
    c.header('cache-control', 'no-store');
  };

/** Stands in for a secret in admin answers. */
export const MASKED = '********';

/**
 * The company webhook as the admin routes show it: the header value is replaced by `customHeaderValueSet`, and
 * credentials in the address (refused on input now, but a database may hold older ones) are masked.
 */
export function webhookView(config: WebhookConfig | undefined) {
  if (!config) return null;
  const url = new URL(config.url);
  const credentials = url.username !== '' || url.password !== '';
  if (url.username) url.username = MASKED;
  if (url.password) url.password = MASKED;
  return {
    url: credentials ? url.href : config.url,
    ...(config.customHeaderName !== undefined ? { customHeaderName: config.customHeaderName } : {}),
    customHeaderValueSet: config.customHeaderValue !== undefined,
  };
}

function cnpjAt(value: string | undefined, path: string): string | undefined {
  if (value === undefined) return undefined;
  if (!isValidCnpj(value)) throw formatError(path, 'must be a valid CNPJ');
  return taxNumberDigits(value);
}

export function companyAdminRoutes(ctx: SandboxContext) {
  const { store, documents, requests, webhook } = ctx.company;
  const receiverOr404 = (id: string) => {
    const receiver = store.receiver(id);
    if (!receiver) throw notFound(`Receiver ${id} not found`);
    return receiver;
  };
  const reviewer = (body: z.infer<typeof decision>): Decider => ({
    userFullName: body.userFullName ?? SANDBOX_REVIEWER,
    userRealm: 'Admin',
    comment: body.comment ?? null,
  });
  const overview = () => ({
    receivers: store.receivers(null, -1, 0).items.map((r) => ({ ...r, accounts: store.accounts(r.id) })),
    paymentRequests: store.allRequests().map((r) => detailView(r, store, ctx.store)),
    documents: documents.all(ctx.clock.now()),
    companyWebhook: webhookView(webhook.get()),
  });

  return new Hono()
    .use('*', requireAdminKey(ctx.company.adminKey))
    .get('/', (c) => c.json({ statusCode: 'Done', data: overview() }))
    .post('/receivers', async (c) => {
      const body = await readBody(c, newReceiver);
      const receiver = {
        id: newId(),
        creationDate: ctx.clock.now().toISOString(),
        receiverStatus: 'Pending' as const,
        companyFantasyName: body.companyFantasyName,
        companyCNPJ: cnpjAt(body.companyCNPJ, '/companyCNPJ')!,
        reviewNote: null,
      };
      store.insertReceiver(receiver);
      return c.json({ statusCode: 'Done', data: receiver }, 201);
    })
    .post('/receivers/:receiverId/accounts', async (c) => {
      const receiver = receiverOr404(c.req.param('receiverId'));
      const body = await readBody(c, newAccount);
      const account = {
        id: newId(),
        bankCode: body.bankCode,
        bankName: body.bankName,
        accountAgency: body.accountAgency,
        accountNumber: body.accountNumber,
        accountOwnerDocNumber: cnpjAt(body.accountOwnerDocNumber, '/accountOwnerDocNumber') ?? receiver.companyCNPJ,
        // Company accounts are paid through a CNPJ key only, as the spec requires.
        pixKey: cnpjAt(body.pixKey, '/pixKey') ?? receiver.companyCNPJ,
        pixKeyType: 'CNPJ',
      };
      store.insertAccount({ ...account, receiverId: receiver.id, createdAt: ctx.clock.now().toISOString() });
      return c.json({ statusCode: 'Done', data: account }, 201);
    })
    .post('/receivers/:receiverId/:decision{approve|reject}', async (c) => {
      const receiver = receiverOr404(c.req.param('receiverId'));
      const body = await readBody(c, review, { optional: true });
      // A reviewer may revisit a decision; requests already approved keep their execution.
      store.reviewReceiver(receiver.id, c.req.param('decision') === 'approve' ? 'Approved' : 'Rejected', body.reviewNote ?? null);
      return c.json({ statusCode: 'Done', data: store.receiver(receiver.id) });
    })
    .post('/transaction-requests/:trId/:decision{approve|reject}', async (c) => {
      const body = await readBody(c, decision, { optional: true });
      const id = c.req.param('trId');
      const decided = c.req.param('decision') === 'approve' ? requests.approve(id, reviewer(body)) : requests.reject(id, reviewer(body));
      return c.json({ statusCode: 'Done', data: detailView(decided, store, ctx.store) });
    })
    .get('/company-webhook', (c) => c.json({ statusCode: 'Done', data: webhookView(webhook.get()) }))
    .put('/company-webhook', async (c) => {
      const body = await readBody(c, webhookConfig, { asSent: urlsAsSent('/url') });
      checkWebhook(body, '');
      webhook.set(body);
      return c.json({ statusCode: 'Done', data: webhookView(body) });
    })
    .delete('/company-webhook', (c) => {
      webhook.reset();
      return c.json({ statusCode: 'Done', data: webhookView(webhook.get()) });
    })
    .get('/documents/:documentId/content', (c) => {
      const file = documents.content(c.req.param('documentId'));
      if (!file) throw notFound('No uploaded file for this document');
      return c.body(new Uint8Array(file.content), 200, downloadHeaders(file.content_type, file.file_name));
    })
    .all('/', methodNotAllowed)
    .all('/receivers', methodNotAllowed)
    .all('/receivers/:receiverId/accounts', methodNotAllowed)
    .all('/receivers/:receiverId/:decision{approve|reject}', methodNotAllowed)
    .all('/transaction-requests/:trId/:decision{approve|reject}', methodNotAllowed)
    .all('/company-webhook', methodNotAllowed)
    .all('/documents/:documentId/content', methodNotAllowed);
}

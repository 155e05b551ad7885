/**
 * The partner API as the provider serves it under `/v1/partners-int`: one sub-app per area. Company payments
 * (receivers, transaction requests, documents) live in `../company`.
 */
import { Hono } from 'hono';
import { requireToken } from '../auth';
import { documentRoutes } from '../company/routes/documents';
import { receiverRoutes } from '../company/routes/receivers';
import { transactionRequestRoutes } from '../company/routes/transaction-requests';
import type { SandboxContext } from '../context';
import { authRoutes } from './auth';
import { balanceRoutes } from './balance';
import { initiationRoutes } from './initiation';
import { pixRoutes } from './pix';
import { simulationRoutes } from './simulation';
import { transactionRoutes } from './transactions';

export function partnerApi(ctx: SandboxContext) {
  return (
    new Hono()
      // Login is mounted before the token check: Hono runs handlers in registration order and login answers first.
      .route('/', authRoutes(ctx))
      .use('*', requireToken(ctx.tokens))
      .route('/accounts/pix', pixRoutes(ctx))
      .route('/accounts/payment-initiation', initiationRoutes(ctx))
      .route('/accounts/transactions', transactionRoutes(ctx))
      .route('/accounts/balance', balanceRoutes(ctx))
      .route('/sandbox', simulationRoutes(ctx))
      .route('/receivers', receiverRoutes(ctx))
      .route('/accounts/transaction-requests', transactionRequestRoutes(ctx))
      .route('/documents', documentRoutes(ctx))
  );
}

/**
 * The partner API as the provider serves it under `/v1/partners-int`: one sub-app per area. Company payments will
 * join here as their own files (receivers, transaction requests, documents).
 */
import { Hono } from 'hono';
import { requireToken } from '../auth';
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
  );
}

/**
 * The codes a refusal of the back office (`/api/admin…`) may carry. It is mounted on the shoppers' API, so it meets
 * the same request checks and limits and may answer any code of core/contract.ts (`API_ERRORS`: the shopper codes and
 * its own); a provider refusal the merchant can act on keeps the provider's reason as its code (outside the table), or
 * `provider_refused` when the provider named none. The console words every one of these in pt-BR
 * (console/api-errors.ts: a code without a text there fails to compile).
 */
import type { ApiErrorCode, PROVIDER_REFUSED } from '../contract';

export type BackOfficeAnswerCode = ApiErrorCode | typeof PROVIDER_REFUSED;

/**
 * The console's refusals as the page shows them: the back office's `error.code` (or `network_error`) with a pt-BR
 * message for every code it may answer (core/backoffice/errors.ts: a code without a text here fails to compile), and
 * the wait a 429 asked for. A provider refusal passed through with a reason of its own keeps the provider's message,
 * except the few reasons worded here.
 */
import type { BackOfficeAnswerCode } from '../core/backoffice';

/** A refused or failed call: the BFF's `error.code` (or `network_error`) with a message fit for the page. */
export class AdminApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** Seconds to wait before trying again, when the answer said (`Retry-After` of a 429). */
    readonly retryAfter?: number,
    /** The answer's `error.details` (the methods of a `step_up_required`, say). */
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'AdminApiError';
  }
}

/**
 * The page's own code (no answer came) and the provider's reasons the console words itself (the partner API's, passed
 * through as the code of a 4xx).
 */
type ConsoleOnlyCode = 'network_error' | 'InsufficientBalance';

const TRY_AGAIN = 'Tente de novo em instantes.';
const RELOAD = 'Recarregue o console e tente de novo.';
const NOT_HERE = 'O console não conhece esta operação. Recarregue a página.';

/** pt-BR wording for every code; several share a text. */
export const MESSAGES: Readonly<Record<BackOfficeAnswerCode | ConsoleOnlyCode, string>> = {
  // The request itself, refused before any route: the page sent something it should not have.
  bad_request: `O servidor recusou o pedido. ${RELOAD}`,
  invalid_json: `O servidor não entendeu os dados enviados. ${RELOAD}`,
  invalid_request: 'Os dados enviados não são válidos. Confira os campos e tente de novo.',
  payload_too_large: 'Os dados enviados passam do tamanho aceito.',
  unsupported_media_type: `O servidor recusou o formato dos dados. ${RELOAD}`,
  headers_too_large: `O pedido passou do tamanho aceito. ${RELOAD}`,
  body_timeout: 'Os dados demoraram demais a chegar ao servidor. Verifique a conexão e tente de novo.',
  request_timeout: 'O envio demorou demais e foi interrompido. Verifique a conexão e tente de novo.',
  not_found: NOT_HERE,
  method_not_allowed: NOT_HERE,
  origin_not_allowed: 'Operação recusada: esta página não está entre as origens permitidas.',
  // The limits and the server's own state.
  rate_limited: `Muitas operações em pouco tempo. ${TRY_AGAIN}`,
  too_many_streams: 'Há atualizações ao vivo demais abertas: feche outras abas do console.',
  server_busy: `O servidor está ocupado. ${TRY_AGAIN}`,
  starting: `O servidor está iniciando. ${TRY_AGAIN}`,
  store_unavailable: `O banco de dados está indisponível por um momento. ${TRY_AGAIN}`,
  internal_error: `Algo deu errado no servidor. ${TRY_AGAIN}`,
  network_error: 'Sem resposta do servidor. Verifique a conexão e tente de novo.',
  // The session and the roles.
  admin_unauthorized: 'Sua sessão expirou. Entre de novo.',
  admin_forbidden: 'Seu papel não permite esta operação. Peça a um proprietário.',
  invalid_credentials: 'E-mail ou senha incorretos.',
  sign_in_rate_limited: 'Muitas tentativas de entrada. Aguarde um pouco e tente de novo.',
  mfa_enrolment_required: 'Seu perfil exige um segundo fator: configure um aplicativo autenticador ou uma chave de acesso.',
  step_up_required: 'Confirme de novo com o seu segundo fator para continuar.',
  mfa_code_invalid: 'Código errado, já usado ou expirado.',
  mfa_sign_in_expired: 'A entrada expirou. Entre de novo com e-mail e senha.',
  mfa_totp_state: 'O aplicativo autenticador já está configurado, ou a configuração não foi iniciada.',
  passkey_not_found: 'Nenhuma chave de acesso sua tem este identificador.',
  cross_site_write: `Operação recusada: ela não partiu desta página. ${RELOAD}`,
  // The users.
  user_exists: 'Já existe um usuário com este e-mail.',
  user_not_found: 'Este usuário não existe mais.',
  session_not_found: 'Esta sessão já foi encerrada.',
  api_key_not_found: 'Esta chave de API não existe mais.',
  api_key_exists: 'Já existe uma chave ativa com este nome.',
  password_too_short: 'A senha deve ter pelo menos 12 caracteres.',
  last_owner: 'Não é possível: deve haver sempre um proprietário ativo. Torne outro usuário proprietário antes.',
  // The provider.
  provider_unavailable: `O provedor de pagamentos não respondeu. ${TRY_AGAIN}`,
  provider_timeout: `O provedor de pagamentos demorou a responder. ${TRY_AGAIN}`,
  provider_rejected: 'O provedor de pagamentos recusou a operação.',
  provider_misconfigured: 'Os pagamentos estão indisponíveis: a conexão com o provedor não está configurada.',
  provider_refused: 'O provedor de pagamentos recusou a operação.',
  InsufficientBalance: 'Saldo insuficiente para o valor mais a tarifa.',
  // Payments, refunds and cash-outs.
  checkout_not_found: 'Este pagamento não foi encontrado.',
  checkout_pending: `Este pagamento ainda está sendo criado. ${TRY_AGAIN}`,
  no_transaction: 'Este pagamento não tem transação no provedor.',
  invalid_cursor: 'A página pedida não existe mais. Atualize a lista.',
  refund_exists: 'Este pagamento já tem um reembolso em andamento ou concluído.',
  not_a_duplicate_payment: 'Só um pagamento em duplicidade de um pedido pode ser reembolsado assim.',
  order_not_paid_twice: 'O pedido não tem outro pagamento concluído: este é o que o paga.',
  payer_not_refundable: 'O provedor não informa um pagador com CPF para este pagamento; reembolse manualmente.',
  refund_exceeds_paid: 'O valor passa do que ainda pode ser reembolsado deste pagamento (outros reembolsos já o usam).',
  refund_in_progress:
    'Outro reembolso deste pagamento ainda está sendo enviado e o resultado não é conhecido. Aguarde a confirmação do provedor e confira a lista.',
  checkout_not_paid: 'Só um pagamento concluído pode ser reembolsado.',
  payer_required: 'Informe o CPF do pagador.',
  payer_cpf_invalid: 'O CPF foi recusado. Confira os dígitos.',
  payer_refused: 'Este CPF não pode ser usado nesta operação.',
  idempotency_key_required: `O pedido veio sem a sua chave de idempotência. ${RELOAD}`,
  idempotency_key_invalid: `A chave de idempotência do pedido não é válida. ${RELOAD}`,
  idempotency_key_reused: 'Esta confirmação já foi usada para outra operação. Revise e confirme de novo.',
  idempotency_key_in_progress: 'A transferência ainda está sendo enviada. Aguarde um instante e confira a lista.',
  // Approvals.
  approval_by_maker: 'Você pediu esta operação: outro proprietário precisa aprová-la ou rejeitá-la.',
  approval_not_pending: 'Esta operação já foi decidida por outro proprietário.',
  approval_not_found: 'Esta operação não está mais na lista de aprovações.',
  approval_by_token: 'O token de administração não aprova operações: um proprietário conectado que não a pediu precisa aprová-la.',
  // Receivers, payment requests and their invoices.
  receiver_not_payable: 'Só um recebedor aprovado pode ser pago, e só em uma das contas dele.',
  payment_request_not_ours: 'Esta solicitação não foi criada pelo console: ela não pode ser aprovada aqui.',
  invalid_file_name: 'O nome do arquivo não é válido. Renomeie o PDF e envie de novo.',
  length_required: 'O navegador não informou o tamanho do arquivo. Envie de novo.',
  file_too_large: 'A nota fiscal deve ter no máximo 10 MiB.',
  pdf_required: 'A nota fiscal deve ser um PDF.',
  // Payment links and the shop's orders.
  order_not_found: 'A loja não conhece este pedido. Confira o número do pedido.',
  orders_unavailable: 'A loja não confirmou o pedido agora. Tente de novo em instantes.',
  orders_timeout: 'A loja demorou a confirmar o pedido. Tente de novo em instantes.',
  order_token_required: 'Este pedido precisa do link enviado pela loja.',
  order_token_invalid: 'O link deste pedido não é válido.',
  order_token_expired: 'O link deste pedido expirou. Gere um novo.',
  return_url_not_allowed: 'O endereço de retorno não pertence à loja.',
  // Webhooks.
  webhook_endpoint_not_found: 'Este endpoint não existe mais. Atualize a lista.',
  webhook_endpoint_from_environment: 'Este endpoint vem de MERCHANT_WEBHOOK_URL: ele só muda no ambiente do servidor.',
  webhook_endpoint_disabled: 'Este endpoint está desativado: reative-o antes de reenviar.',
  webhook_endpoints_limit: 'Limite de endpoints atingido: remova ou reaproveite um endpoint existente.',
  webhook_endpoint_url_not_allowed:
    'Este endereço não pode receber webhooks: use um endereço https na internet pública (nada de localhost, rede interna ou IPs reservados).',
  webhook_event_not_found: 'Este evento não existe mais. Atualize a lista.',
};

const isWorded = (code: string): code is keyof typeof MESSAGES => Object.hasOwn(MESSAGES, code);

export function errorFrom(status: number, body: unknown, retryAfter?: string | null): AdminApiError {
  const error = (body as { error?: { code?: string; message?: string; details?: Record<string, unknown> } } | null)?.error;
  const code = error?.code ?? `http_${status}`;
  const message = isWorded(code) ? MESSAGES[code] : (error?.message ?? `Falha inesperada (HTTP ${status}).`);
  const seconds = retryAfter ? Number(retryAfter) : NaN;
  const wait = Number.isSafeInteger(seconds) && seconds > 0 ? seconds : undefined;
  return new AdminApiError(status, code, message, wait, error?.details);
}

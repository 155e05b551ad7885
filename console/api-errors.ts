/**
 * The console's refusals as the page shows them: the BFF's `error.code` (or `network_error`) with a pt-BR message for
 * every code a merchant meets (anything else keeps the server's own message), and the wait a 429 asked for.
 */
/** A refused or failed call: the BFF's `error.code` (or `network_error`) with a message fit for the page. */
export class AdminApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** Seconds to wait before trying again, when the answer said (`Retry-After` of a 429). */
    readonly retryAfter?: number,
  ) {
    super(message);
    this.name = 'AdminApiError';
  }
}

/** pt-BR wording for the codes a merchant meets; anything else keeps the server's own message. */
export const MESSAGES: Record<string, string> = {
  admin_unauthorized: 'Sua sessão expirou. Entre de novo.',
  admin_forbidden: 'Seu papel não permite esta operação. Peça a um proprietário.',
  invalid_credentials: 'E-mail ou senha incorretos.',
  sign_in_rate_limited: 'Muitas tentativas de entrada. Aguarde um pouco e tente de novo.',
  cross_site_write: 'Operação recusada: ela não partiu desta página. Recarregue o console e tente de novo.',
  network_error: 'Sem resposta do servidor. Verifique a conexão e tente de novo.',
  file_too_large: 'A nota fiscal deve ter no máximo 10 MiB.',
  pdf_required: 'A nota fiscal deve ser um PDF.',
  provider_unavailable: 'O provedor de pagamentos não respondeu. Tente de novo em instantes.',
  InsufficientBalance: 'Saldo insuficiente para o valor mais a tarifa.',
  refund_exists: 'Este pagamento já tem um reembolso em andamento ou concluído.',
  order_not_paid_twice: 'O pedido não tem outro pagamento concluído: este é o que o paga.',
  payer_not_refundable: 'O provedor não informa um pagador com CPF para este pagamento; reembolse manualmente.',
  idempotency_key_in_progress: 'A transferência ainda está sendo enviada. Aguarde um instante e confira a lista.',
  refund_exceeds_paid: 'O valor passa do que ainda pode ser reembolsado deste pagamento (outros reembolsos já o usam).',
  refund_in_progress:
    'Outro reembolso deste pagamento ainda está sendo enviado e o resultado não é conhecido. Aguarde a confirmação do provedor e confira a lista.',
  checkout_not_paid: 'Só um pagamento concluído pode ser reembolsado.',
  approval_by_maker: 'Você pediu esta operação: outro proprietário precisa aprová-la ou rejeitá-la.',
  approval_not_pending: 'Esta operação já foi decidida por outro proprietário.',
  approval_not_found: 'Esta operação não está mais na lista de aprovações.',
  approval_by_token: 'O token de administração não aprova operações: um proprietário conectado que não a pediu precisa aprová-la.',
  receiver_not_payable: 'Só um recebedor aprovado pode ser pago, e só em uma das contas dele.',
  payment_request_not_ours: 'Esta solicitação não foi criada pelo console: ela não pode ser aprovada aqui.',
  user_exists: 'Já existe um usuário com este e-mail.',
  user_not_found: 'Este usuário não existe mais.',
  password_too_short: 'A senha deve ter pelo menos 12 caracteres.',
  last_owner: 'Não é possível: deve haver sempre um proprietário ativo. Torne outro usuário proprietário antes.',
  order_not_found: 'A loja não conhece este pedido. Confira o número do pedido.',
  orders_unavailable: 'A loja não confirmou o pedido agora. Tente de novo em instantes.',
  orders_timeout: 'A loja demorou a confirmar o pedido. Tente de novo em instantes.',
  webhook_endpoint_disabled: 'Este endpoint está desativado: reative-o antes de reenviar.',
  webhook_endpoints_limit: 'Limite de endpoints atingido: remova ou reaproveite um endpoint existente.',
  webhook_endpoint_url_not_allowed:
    'Este endereço não pode receber webhooks: use um endereço https na internet pública (nada de localhost, rede interna ou IPs reservados).',
};

export function errorFrom(status: number, body: unknown, retryAfter?: string | null): AdminApiError {
  const error = (body as { error?: { code?: string; message?: string } } | null)?.error;
  const code = error?.code ?? `http_${status}`;
  const message = MESSAGES[code] ?? error?.message ?? `Falha inesperada (HTTP ${status}).`;
  const seconds = retryAfter ? Number(retryAfter) : NaN;
  return new AdminApiError(status, code, message, Number.isSafeInteger(seconds) && seconds > 0 ? seconds : undefined);
}

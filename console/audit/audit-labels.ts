/**
 * The audit trail in the merchant's words: the known actions (the BFF records them dotted, `refund.create`) and the
 * outcomes (their words are core/backoffice's, as the CSV writes them). An action not listed here is shown as the BFF
 * wrote it.
 */
import { AUDIT_OUTCOME_LABELS, AUDIT_OUTCOMES, type AuditOutcome } from '../../core/backoffice';

/** The actions the back office records, in the order the filter offers them. */
export const AUDIT_ACTIONS: readonly { action: string; label: string }[] = [
  { action: 'session.sign_in', label: 'Entrada no console' },
  { action: 'session.sign_out', label: 'Saída do console' },
  { action: 'refund.create', label: 'Reembolso pedido' },
  { action: 'cashout.create', label: 'Transferência pedida' },
  { action: 'approval.approve', label: 'Aprovação' },
  { action: 'approval.reject', label: 'Rejeição' },
  { action: 'user.add', label: 'Usuário adicionado' },
  { action: 'user.change', label: 'Papel alterado' },
  { action: 'user.disable', label: 'Usuário desativado' },
  { action: 'user.enable', label: 'Usuário reativado' },
  { action: 'user.reset_password', label: 'Senha redefinida' },
  { action: 'webhook_endpoint.add', label: 'Endpoint de webhook adicionado' },
  { action: 'webhook_endpoint.disable', label: 'Endpoint de webhook desativado' },
  { action: 'webhook_endpoint.enable', label: 'Endpoint de webhook reativado' },
  { action: 'webhook_endpoint.delete', label: 'Endpoint de webhook removido' },
  { action: 'webhook_endpoint.rotate', label: 'Segredo de webhook trocado' },
  { action: 'webhook_endpoint.rotate_finish', label: 'Segredo anterior de webhook encerrado' },
  { action: 'webhook_endpoint.test', label: 'Evento de teste de webhook enviado' },
  { action: 'access.denied', label: 'Operação negada ao papel' },
];

/**
 * The families of actions, as the filter offers them besides each action: the BFF's `action` filter takes a prefix
 * (`user` matches `user.add`, `user.change`…).
 */
export const AUDIT_GROUPS: readonly { action: string; label: string }[] = [
  { action: 'session', label: 'Entradas e saídas (todas)' },
  { action: 'refund', label: 'Reembolsos (todos)' },
  { action: 'cashout', label: 'Transferências (todas)' },
  { action: 'approval', label: 'Aprovações e rejeições (todas)' },
  { action: 'user', label: 'Usuários (todas as mudanças)' },
  { action: 'webhook_endpoint', label: 'Webhooks (todas as mudanças)' },
];

const ACTION_LABELS = new Map([...AUDIT_ACTIONS, ...AUDIT_GROUPS].map((a) => [a.action, a.label]));

/** pt-BR label of a known action; the action itself otherwise. */
export const actionLabel = (action: string) => ACTION_LABELS.get(action) ?? action;

const OUTCOME_TONES: Readonly<Record<AuditOutcome, 'good' | 'bad' | 'wait'>> = {
  ok: 'good',
  pending_approval: 'wait',
  refused: 'bad',
  failed: 'bad',
};

/** The outcomes, as the filter offers them, with their words (core/backoffice) and the colour of their pill. */
export const AUDIT_OUTCOME_CHOICES = AUDIT_OUTCOMES.map((outcome) => ({
  outcome,
  label: AUDIT_OUTCOME_LABELS[outcome],
  tone: OUTCOME_TONES[outcome],
}));

export const outcomeOf = (outcome: string) =>
  AUDIT_OUTCOME_CHOICES.find((o) => o.outcome === outcome) ?? { outcome, label: outcome, tone: 'neutral' as const };

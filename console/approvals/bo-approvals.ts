/**
 * The owners' approvals: refunds, cash-outs and payment requests to companies above the approval threshold wait here
 * for another owner (amount, kind, whom it pays, who asked, when), who approves or rejects each after a confirmation. The maker of a movement
 * cannot decide it (the server answers 403 `approval_by_maker`): their own rows say another owner must. The movements
 * decided lately are listed below. `<bo-app>` calls `refresh()` when the live stream reports a cash-out's change.
 */
import { LitElement, css, html, nothing, type PropertyValues } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import { formatMoney } from '../../core/money';
import { AdminApiError, type AdminApi, type ApprovalView, type Role } from '../api';
import { hasRole } from '../../core/backoffice';
import { confirmStep } from '../confirm/confirm-step';
import confirmStyles from '../confirm/confirm.styles';
import { Confirmation } from '../confirm/confirmation';
import { emit, notify } from '../events';
import { formatDate } from '../format';
import { Loading } from '../loading';
import shared from '../shared.styles';
import { approvalSubject, decidedHead, decidedRow, kindLabel, movementCells, payeeDocument, payeeName, pendingHead } from './approval-rows';

/** Decided movements shown: the most recent. */
const DECIDED_SHOWN = 20;

const DECISIONS = {
  approve: {
    title: 'Confirme a aprovação',
    confirm: 'Confirmar aprovação',
    refund: 'aprovado e enviado',
    cashout: 'aprovada e enviada',
    payment_request: 'aprovado e enviado ao provedor',
  },
  reject: {
    title: 'Confirme a rejeição',
    confirm: 'Confirmar rejeição',
    refund: 'rejeitado',
    cashout: 'rejeitada',
    payment_request: 'rejeitado',
  },
} as const;

/** What the decision does, as the confirmation says it. */
const consequence = (item: ApprovalView, decision: Decision) =>
  decision === 'reject'
    ? 'Ao rejeitar, nada é enviado.'
    : item.kind === 'payment_request'
      ? 'Ao aprovar, a solicitação é enviada ao provedor, que a paga depois da aprovação no portal dele.'
      : 'Ao aprovar, o valor é enviado por PIX ao destinatário.';
type Decision = keyof typeof DECISIONS;
/** The movement whose decision is being confirmed, and which one. */
type Asking = { item: ApprovalView; decision: Decision };

/**
 * @event bo-balance-changed - An approved movement was sent.
 * @event bo-cashout-created - An approved cash-out was sent. `detail: { cashOut }`
 * @event bo-notice - A status message for the page's live region.
 */
@customElement('bo-approvals')
export class BoApprovals extends LitElement {
  static override styles = [
    shared,
    confirmStyles,
    css`
      div.actions {
        display: flex;
        flex-wrap: wrap;
        gap: 0.35rem;
      }
    `,
  ];

  /** The back-office API of the signed-in merchant. */
  @property({ attribute: false }) api?: AdminApi;
  /** The signed-in role: only owners decide (a property only: the attribute is ARIA's). */
  @property({ attribute: false }) override role: Role = 'viewer';
  /** Who is signed in (the name the BFF records as `requestedBy`; read from the session when not given). */
  @property({ attribute: false }) me = '';

  @state() private pending?: ApprovalView[];
  @state() private decided?: ApprovalView[];
  /** Movements the server said were made by the signed-in owner (when `me` did not tell). */
  @state() private own = new Set<string>();
  private readonly loading = new Loading(this);
  private readonly confirmation = new Confirmation<Asking>(this, {
    id: 'ap-confirm',
    back:
      ({ item }) =>
      () =>
        this.rowButton(item) ?? this.heading(),
  });

  override connectedCallback() {
    super.connectedCallback();
    void this.refresh();
  }

  override updated(changed: PropertyValues<this>) {
    // Signed in again, or made an owner meanwhile.
    const again = (name: 'api' | 'role') => changed.has(name) && changed.get(name) !== undefined;
    if (again('api') || again('role')) void this.refresh();
  }

  /** Reads both lists again. */
  async refresh() {
    const api = this.api;
    if (!api || !hasRole(this.role, 'owner')) return;
    await this.loading.run(async () => {
      this.me ||= (await api.session().catch(() => undefined))?.actor.name ?? '';
      const [pending, decided] = await Promise.all([api.approvals('pending'), api.approvals('decided')]);
      this.pending = pending.data;
      this.decided = decided.data.slice(0, DECIDED_SHOWN);
      const asked = this.confirmation.subject?.item.idempotencyKey;
      if (asked && !this.pending.some((a) => a.idempotencyKey === asked)) this.confirmation.close();
    });
  }

  private isOwn(a: ApprovalView) {
    return (!!this.me && a.requestedBy === this.me) || this.own.has(a.idempotencyKey);
  }

  private rowButton(item: ApprovalView) {
    return this.renderRoot.querySelector<HTMLElement>(`tr[data-key="${CSS.escape(item.idempotencyKey)}"] button`);
  }

  private heading() {
    return this.renderRoot.querySelector<HTMLElement>('#ap-title');
  }

  private async decide() {
    const api = this.api;
    if (!api) return;
    await this.confirmation.run(
      async ({ item, decision }) => {
        const view = await api.decideApproval(item, decision);
        notify(this, `${approvalSubject(item)} ${DECISIONS[decision][item.kind]}.`, 'success');
        // A payment request approved here is only asked of the provider: the balance moves once its portal pays it.
        if (decision === 'approve' && view.kind !== 'payment_request') {
          emit(this, 'bo-balance-changed', null);
          if (view.kind === 'cashout') emit(this, 'bo-cashout-created', { cashOut: view });
        }
        await this.refresh();
        return '#ap-title';
      },
      async (error, { item }) => {
        if (!(error instanceof AdminApiError)) return;
        if (error.code === 'approval_by_maker') this.own = new Set([...this.own, item.idempotencyKey]);
        // Decided or gone meanwhile: say so, show the lists as they are now, and close the step.
        if (error.code === 'approval_not_pending' || error.code === 'approval_not_found') {
          notify(this, error.message, 'error');
          await this.refresh();
          return () => this.rowButton(item) ?? this.heading();
        }
      },
    );
  }

  private renderPendingRow(a: ApprovalView) {
    const subject = approvalSubject(a);
    return html`<tr data-key=${a.idempotencyKey} aria-current=${this.confirmation.subject?.item.idempotencyKey === a.idempotencyKey ? 'true' : 'false'}>
      ${movementCells(a)}
      <td data-label="Quando" class="nowrap">${formatDate(a.createdAt)}</td>
      <td class="actions">
        ${
          this.isOwn(a)
            ? html`<span class="muted" data-testid="own-approval">Pedido por você: outro proprietário precisa decidir.</span>`
            : html`<div class="actions">
                <button class="small" type="button" aria-label="Aprovar: ${subject}" ?disabled=${this.confirmation.busy}
                  @click=${() => this.confirmation.ask({ item: a, decision: 'approve' })}>Aprovar</button>
                <button class="danger small" type="button" aria-label="Rejeitar: ${subject}" ?disabled=${this.confirmation.busy}
                  @click=${() => this.confirmation.ask({ item: a, decision: 'reject' })}>Rejeitar</button>
              </div>`
        }
      </td>
    </tr>`;
  }

  private renderConfirm({ item, decision }: Asking) {
    const words = DECISIONS[decision];
    const body = html`<dl data-testid="approval-confirmation">
        <dt>${kindLabel(item.kind)}</dt>
        <dd>${formatMoney(item.amount)} para ${payeeName(item)}${payeeDocument(item) ? ` · ${payeeDocument(item)}` : ''}</dd>
        ${
          item.kind === 'payment_request'
            ? html`<dt>Descrição</dt>
                <dd>${item.description}${item.account.bankName ? ` · ${item.account.bankName}, agência ${item.account.agency}, conta ${item.account.number}` : ''}</dd>`
            : nothing
        }
        <dt>Pedido por</dt>
        <dd>${item.requestedBy ?? '—'} em ${formatDate(item.createdAt)}</dd>
      </dl>
      <p class="muted">${consequence(item, decision)}</p>`;
    return confirmStep(
      this.confirmation,
      { title: words.title, body, confirm: words.confirm, busy: 'Enviando…', danger: decision === 'reject', errorTestId: 'approval-error' },
      () => void this.decide(),
    );
  }

  private renderLists() {
    const pending = this.pending;
    const decided = this.decided;
    return html`
      ${
        pending && pending.length > 0
          ? html`<div class="table-wrap"><table data-testid="approvals-pending">
              <caption class="sr-only">Operações aguardando aprovação</caption>
              ${pendingHead}
              <tbody>${pending.map((a) => this.renderPendingRow(a))}</tbody>
            </table></div>`
          : html`<p class="muted">${pending ? 'Nenhuma operação aguardando aprovação.' : 'Carregando…'}</p>`
      }
      ${this.confirmation.subject ? this.renderConfirm(this.confirmation.subject) : nothing}
      <h3>Decididas recentemente</h3>
      ${
        decided && decided.length > 0
          ? html`<div class="table-wrap"><table data-testid="approvals-decided">
              <caption class="sr-only">Operações decididas recentemente</caption>
              ${decidedHead}
              <tbody>${decided.map(decidedRow)}</tbody>
            </table></div>`
          : html`<p class="muted">${decided ? 'Nenhuma decisão ainda.' : 'Carregando…'}</p>`
      }
    `;
  }

  override render() {
    const owner = hasRole(this.role, 'owner');
    return html`<section class="card" aria-labelledby="ap-title" aria-busy=${this.loading.busy ? 'true' : 'false'}>
      <div class="head">
        <h2 id="ap-title" tabindex="-1">Aprovações</h2>
        ${
          owner
            ? html`<button class="secondary small" type="button" ?disabled=${this.loading.busy} @click=${() => this.refresh()}>Atualizar</button>`
            : nothing
        }
      </div>
      ${
        owner
          ? html`<p class="muted">
                Reembolsos, transferências e pagamentos a empresas acima do limite esperam a decisão de um proprietário que não os pediu.
              </p>
              ${this.loading.error ? html`<p class="error" role="alert">${this.loading.error}</p>` : nothing} ${this.renderLists()}`
          : html`<p class="muted">Apenas proprietários decidem as aprovações.</p>`
      }
    </section>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'bo-approvals': BoApprovals;
  }
}

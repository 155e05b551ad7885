/**
 * The console's users, for owners: each with role, state and last sign-in; a user added with a first password; a
 * role changed, a user disabled (their sessions end at once) or enabled again, each after a confirmation. The BFF
 * keeps at least one enabled owner, and says so (`last_owner`), which is explained here.
 */
import { LitElement, css, html, nothing } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import type { AdminApi, AdminUser, Role, UserChange } from '../api';
import { confirmStep } from '../confirm/confirm-step';
import confirmStyles from '../confirm/confirm.styles';
import { Confirmation } from '../confirm/confirmation';
import { hasRole } from '../../core/backoffice';
import { notify } from '../events';
import { formatDate, roleLabel } from '../format';
import { Loading } from '../loading';
import { loadError, ownersOnly, sectionHead } from '../section';
import shared from '../shared.styles';
import { readUserForm, roleOptions, userForm } from './user-form';

type Change = { user: AdminUser; kind: 'role' | 'disable' | 'enable' };

const TITLES = { role: 'Alterar o papel', disable: 'Desativar o usuário', enable: 'Reativar o usuário' } as const;

@customElement('bo-users')
export class BoUsers extends LitElement {
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
  /** The signed-in role: only owners manage users (a property only: the attribute is ARIA's). */
  @property({ attribute: false }) override role: Role = 'viewer';
  /** Who is signed in (e-mail; read from the session when not given): their row says so. */
  @property({ attribute: false }) me = '';

  @state() private users?: AdminUser[];
  @state() private errors: Record<string, string> = {};
  @state() private addError = '';
  @state() private adding = false;
  private readonly loading = new Loading(this);
  private readonly confirmation = new Confirmation<Change>(this, {
    id: 'us-confirm',
    back:
      ({ user }) =>
      () =>
        this.rowButton(user.id) ?? this.renderRoot.querySelector<HTMLElement>('#us-title'),
  });

  override connectedCallback() {
    super.connectedCallback();
    void this.refresh();
  }

  async refresh() {
    const api = this.api;
    if (!api || !hasRole(this.role, 'owner')) return;
    await this.loading.run(async () => {
      this.me ||= (await api.session().catch(() => undefined))?.actor.name ?? '';
      this.users = (await api.users()).data;
    });
  }

  private async add(event: SubmitEvent) {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    const read = readUserForm(form);
    this.errors = read.errors ?? {};
    this.addError = '';
    if (read.errors || !this.api) {
      await this.updateComplete;
      form.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
      return;
    }
    this.adding = true;
    try {
      const user = await this.api.addUser(read.input);
      form.reset();
      notify(this, `Usuário ${user.email} adicionado como ${roleLabel(user.role)}.`, 'success');
      await this.refresh();
      form.querySelector<HTMLElement>('#us-email')?.focus();
    } catch (error) {
      this.addError = (error as Error).message;
    } finally {
      this.adding = false;
    }
  }

  private rowButton(id: string) {
    return this.renderRoot.querySelector<HTMLElement>(`tr[data-user="${CSS.escape(id)}"] button`);
  }

  private async change() {
    const api = this.api;
    if (!api) return;
    await this.confirmation.run(async ({ user, kind }) => {
      let input: UserChange;
      if (kind === 'role') {
        const role = this.renderRoot.querySelector<HTMLSelectElement>('#us-new-role')?.value as Role | undefined;
        if (!role || role === user.role) throw new Error('Escolha um papel diferente do atual.');
        input = { role };
      } else {
        input = { disabled: kind === 'disable' };
      }
      const changed = await api.changeUser(user.id, input);
      const said =
        kind === 'role'
          ? `agora é ${roleLabel(changed.role)}`
          : changed.disabled
            ? 'desativado: suas sessões foram encerradas'
            : 'reativado';
      notify(this, `Usuário ${changed.email} ${said}.`, 'success');
      await this.refresh();
    });
  }

  private renderRow(u: AdminUser) {
    const self = !!this.me && u.email === this.me;
    return html`<tr data-user=${u.id} aria-current=${this.confirmation.subject?.user.id === u.id ? 'true' : 'false'}>
      <td data-label="E-mail">${u.email}${self ? html` <span class="muted">(você)</span>` : nothing}</td>
      <td data-label="Papel">${roleLabel(u.role)}</td>
      <td data-label="Situação"><span class="pill" data-tone=${u.disabled ? 'bad' : 'good'}>${u.disabled ? 'Desativado' : 'Ativo'}</span></td>
      <td data-label="Último acesso" class="nowrap">${u.lastSignInAt ? formatDate(u.lastSignInAt) : 'nunca entrou'}</td>
      <td class="actions">
        <div class="actions">
          <button class="secondary small" type="button" aria-label="Alterar papel de ${u.email}" @click=${() => this.confirmation.ask({ user: u, kind: 'role' })}>
            Alterar papel
          </button>
          ${
            u.disabled
              ? html`<button class="secondary small" type="button" aria-label="Reativar ${u.email}" @click=${() => this.confirmation.ask({ user: u, kind: 'enable' })}>Reativar</button>`
              : html`<button class="danger small" type="button" aria-label="Desativar ${u.email}" @click=${() => this.confirmation.ask({ user: u, kind: 'disable' })}>Desativar</button>`
          }
        </div>
      </td>
    </tr>`;
  }

  private renderConfirm({ user, kind }: Change) {
    const body =
      kind === 'role'
        ? html`<div class="field">
            <label for="us-new-role">Novo papel (hoje: ${roleLabel(user.role)})</label>
            <select id="us-new-role">${roleOptions(user.role)}</select>
          </div>`
        : html`<p class="muted">
            ${kind === 'disable' ? 'A pessoa não poderá mais entrar, e suas sessões abertas terminam agora.' : 'A pessoa poderá entrar de novo com sua senha.'}
          </p>`;
    const confirm = kind === 'role' ? 'Confirmar papel' : kind === 'disable' ? 'Confirmar desativação' : 'Confirmar reativação';
    return confirmStep(
      this.confirmation,
      { title: `${TITLES[kind]} ${user.email}`, body, confirm, busy: 'Salvando…', danger: kind === 'disable', errorTestId: 'user-error' },
      () => void this.change(),
    );
  }

  override render() {
    if (!hasRole(this.role, 'owner')) {
      return ownersOnly('us-title', 'Usuários', 'os usuários');
    }
    const users = this.users;
    return html`<section class="card" aria-labelledby="us-title" aria-busy=${this.loading.busy ? 'true' : 'false'}>
      ${sectionHead('us-title', 'Usuários', this.loading, () => void this.refresh())}
      <p class="muted">Deve haver sempre ao menos um proprietário ativo: o último não pode ser desativado nem mudar de papel.</p>
      ${loadError(this.loading)}
      ${
        users && users.length > 0
          ? html`<div class="table-wrap"><table data-testid="users-table">
              <caption class="sr-only">Usuários do console</caption>
              <thead><tr><th>E-mail</th><th>Papel</th><th>Situação</th><th>Último acesso</th><th><span class="sr-only">Ações</span></th></tr></thead>
              <tbody>${users.map((u) => this.renderRow(u))}</tbody>
            </table></div>`
          : html`<p class="muted">${users ? 'Nenhum usuário ainda.' : 'Carregando…'}</p>`
      }
      ${this.confirmation.subject ? this.renderConfirm(this.confirmation.subject) : nothing}
      ${userForm({ errors: this.errors, error: this.addError, busy: this.adding, onSubmit: (e) => void this.add(e) })}
    </section>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'bo-users': BoUsers;
  }
}

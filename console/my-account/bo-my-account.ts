/**
 * "Minha conta", for every role: the signed-in user's sessions (device, address, opened, last use, this one marked),
 * each other one ended with "Encerrar", or all others at once with "Encerrar as outras"; and the password changed
 * with the current one, which ends every other session (this one goes on: the BFF sets its new cookie); and the second
 * factor (console/mfa/bo-mfa-setup.ts: the authenticator app, recovery codes, passkeys). The bearer
 * token has no account: the BFF answers 400, shown as it comes.
 */
import { LitElement, css, html, nothing } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import type { AccountSession, AdminApi } from '../api';
import { notify } from '../events';
import { formatDate } from '../format';
import { Loading } from '../loading';
import '../mfa/bo-mfa-setup';
import shared from '../shared.styles';

const MIN_PASSWORD = 12;

@customElement('bo-my-account')
export class BoMyAccount extends LitElement {
  static override styles = [
    shared,
    css`
      form {
        max-width: 28rem;
      }
    `,
  ];

  /** The back-office API of the signed-in merchant. */
  @property({ attribute: false }) api?: AdminApi;

  @state() private sessions?: AccountSession[];
  @state() private ending = '';
  @state() private endError = '';
  @state() private passwordError = '';
  @state() private changing = false;
  private readonly loading = new Loading(this);

  override connectedCallback() {
    super.connectedCallback();
    void this.refresh();
  }

  async refresh() {
    const api = this.api;
    if (!api) return;
    await this.loading.run(async () => {
      this.sessions = (await api.mySessions()).sessions;
    });
  }

  /** Ends one session (`id`) or, with `others`, every session but this one. */
  private async end(which: { id: string } | 'others') {
    const api = this.api;
    if (!api) return;
    this.ending = which === 'others' ? 'others' : which.id;
    this.endError = '';
    try {
      if (which === 'others') {
        const { ended } = await api.endOtherSessions();
        notify(this, ended === 1 ? '1 outra sessão encerrada.' : `${ended} outras sessões encerradas.`, 'success');
      } else {
        await api.endSession(which.id);
        notify(this, 'Sessão encerrada.', 'success');
      }
      await this.refresh();
      this.renderRoot.querySelector<HTMLElement>('#ma-sessions-title')?.focus();
    } catch (error) {
      this.endError = (error as Error).message;
    } finally {
      this.ending = '';
    }
  }

  private async changePassword(event: SubmitEvent) {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    const field = (name: string) => form.querySelector<HTMLInputElement>(`input[name="${name}"]`)?.value ?? '';
    const currentPassword = field('currentPassword');
    const newPassword = field('newPassword');
    this.passwordError = !currentPassword
      ? 'Informe a senha atual.'
      : newPassword.length < MIN_PASSWORD
        ? `A nova senha deve ter pelo menos ${MIN_PASSWORD} caracteres.`
        : '';
    if (this.passwordError || !this.api) return;
    this.changing = true;
    try {
      const { ended } = await this.api.changeMyPassword({ currentPassword, newPassword });
      form.reset();
      notify(
        this,
        `Senha alterada. ${ended === 1 ? '1 outra sessão foi encerrada' : `${ended} outras sessões foram encerradas`}.`,
        'success',
      );
      await this.refresh();
    } catch (error) {
      const code = (error as { code?: string }).code;
      this.passwordError = code === 'invalid_credentials' ? 'A senha atual está incorreta.' : (error as Error).message;
    } finally {
      this.changing = false;
    }
  }

  private renderSession(s: AccountSession) {
    return html`<tr data-session=${s.id} aria-current=${s.current ? 'true' : 'false'}>
      <td data-label="Dispositivo">${s.device ?? 'Desconhecido'}${s.current ? html` <span class="pill" data-tone="good">esta sessão</span>` : nothing}</td>
      <td data-label="Endereço">${s.address ?? '—'}</td>
      <td data-label="Aberta em" class="nowrap">${formatDate(s.createdAt)}</td>
      <td data-label="Último uso" class="nowrap">${formatDate(s.lastSeenAt)}</td>
      <td class="actions">
        ${
          s.current
            ? nothing
            : html`<button class="danger small" type="button" aria-label="Encerrar a sessão de ${s.device ?? 'dispositivo desconhecido'}, aberta em ${formatDate(s.createdAt)}"
                ?disabled=${this.ending !== ''} @click=${() => void this.end({ id: s.id })}>${this.ending === s.id ? 'Encerrando…' : 'Encerrar'}</button>`
        }
      </td>
    </tr>`;
  }

  override render() {
    const sessions = this.sessions;
    const others = sessions?.filter((s) => !s.current).length ?? 0;
    return html`<section class="card" aria-labelledby="ma-title" aria-busy=${this.loading.busy ? 'true' : 'false'}>
      <div class="head">
        <h2 id="ma-title" tabindex="-1">Minha conta</h2>
        <button class="secondary small" type="button" ?disabled=${this.loading.busy} @click=${() => this.refresh()}>Atualizar</button>
      </div>
      <h3 id="ma-sessions-title" tabindex="-1">Sessões abertas</h3>
      ${this.loading.error ? html`<p class="error" role="alert">${this.loading.error}</p>` : nothing}
      ${
        sessions && sessions.length > 0
          ? html`<div class="table-wrap"><table data-testid="sessions-table">
              <caption class="sr-only">Suas sessões abertas</caption>
              <thead><tr><th>Dispositivo</th><th>Endereço</th><th>Aberta em</th><th>Último uso</th><th><span class="sr-only">Ações</span></th></tr></thead>
              <tbody>${sessions.map((s) => this.renderSession(s))}</tbody>
            </table></div>`
          : html`<p class="muted">${sessions ? 'Nenhuma sessão aberta.' : 'Carregando…'}</p>`
      }
      ${this.endError ? html`<p class="error" role="alert">${this.endError}</p>` : nothing}
      <button class="secondary" type="button" ?disabled=${others === 0 || this.ending !== ''} @click=${() => void this.end('others')}>
        ${this.ending === 'others' ? 'Encerrando…' : 'Encerrar as outras'}
      </button>
      <bo-mfa-setup .api=${this.api}></bo-mfa-setup>
      <form @submit=${(e: SubmitEvent) => void this.changePassword(e)} novalidate aria-labelledby="ma-password-title">
        <h3 id="ma-password-title">Alterar a senha</h3>
        <div class="field">
          <label for="ma-current">Senha atual</label>
          <input id="ma-current" name="currentPassword" type="password" autocomplete="current-password" />
        </div>
        <div class="field">
          <label for="ma-new">Nova senha</label>
          <input id="ma-new" name="newPassword" type="password" autocomplete="new-password" minlength=${MIN_PASSWORD} aria-describedby="ma-new-hint" />
          <p id="ma-new-hint" class="muted">Pelo menos ${MIN_PASSWORD} caracteres. As suas outras sessões serão encerradas.</p>
        </div>
        ${this.passwordError ? html`<p class="error" role="alert" data-testid="password-error">${this.passwordError}</p>` : nothing}
        <button type="submit" ?disabled=${this.changing}>${this.changing ? 'Alterando…' : 'Alterar a senha'}</button>
      </form>
    </section>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'bo-my-account': BoMyAccount;
  }
}

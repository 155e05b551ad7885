import { LitElement, css, html, nothing } from 'lit';
import { customElement, state } from 'lit/decorators.js';
import { AdminApi, AdminApiError } from '../api';
import { emit } from '../events';
import shared from '../shared.styles';

/**
 * The sign-in form: checks the admin token against the BFF (by reading the balance) before handing it over.
 *
 * @event bo-signed-in - The token was accepted. `detail: { token }`.
 */
@customElement('bo-sign-in')
export class BoSignIn extends LitElement {
  static override styles = [
    shared,
    css`
      .card {
        max-width: 30rem;
        margin: 2rem auto;
      }
      p {
        margin: 0 0 1rem;
      }
    `,
  ];

  @state() private error = '';
  @state() private busy = false;

  private async handleSubmit(event: SubmitEvent) {
    event.preventDefault();
    const input = this.renderRoot.querySelector('input')!;
    const token = input.value.trim();
    if (!token) {
      this.error = 'Informe o token de administrador.';
      input.focus();
      return;
    }
    this.busy = true;
    this.error = '';
    try {
      await new AdminApi(token).balance();
      emit(this, 'bo-signed-in', { token });
    } catch (error) {
      this.error = error instanceof AdminApiError ? error.message : 'Não foi possível entrar.';
      input.select();
    } finally {
      this.busy = false;
    }
  }

  override render() {
    return html`
      <form class="card" @submit=${this.handleSubmit} novalidate aria-labelledby="sign-in-title">
        <h2 id="sign-in-title">Entrar no back-office</h2>
        <p class="muted">
          Use o token de administrador do servidor: a variável <code>ADMIN_TOKEN</code> ou o arquivo
          <code>admin-token</code> da pasta de dados (o log de inicialização mostra onde).
        </p>
        <div class="field">
          <label for="token">Token de administrador</label>
          <input
            id="token"
            name="token"
            type="password"
            autocomplete="off"
            spellcheck="false"
            aria-invalid=${this.error ? 'true' : 'false'}
            aria-describedby="token-error"
          />
        </div>
        <p id="token-error" class="error" role="alert">${this.error || nothing}</p>
        <button type="submit" ?disabled=${this.busy}>${this.busy ? 'Verificando…' : 'Entrar'}</button>
      </form>
    `;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'bo-sign-in': BoSignIn;
  }
}

import { LitElement, css, html, nothing, type PropertyValues } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import { AdminApi, AdminApiError } from '../api';
import { emit } from '../events';
import type { MfaMethod } from '../../core/backoffice';
import { usePasskey } from '../mfa/passkey';
import shared from '../shared.styles';

/** How long to wait, said in pt-BR: "30 segundos", "2 minutos". */
function waitText(seconds: number): string {
  if (seconds < 60) return `${seconds} ${seconds === 1 ? 'segundo' : 'segundos'}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} ${minutes === 1 ? 'minuto' : 'minutos'}`;
}

/**
 * The sign-in form: e-mail and password, sent once to `POST /api/admin/session`, which answers with the session as an
 * HttpOnly cookie (the page keeps neither the password nor any token). Refusals are said in pt-BR in the form's alert
 * and focus goes to the field to fix; `message` (a session that expired, say) is shown in the same alert on arrival.
 * With a second factor on, a second step follows: a TOTP or recovery code, or the user's passkey (console/mfa/).
 *
 * @event bo-signed-in - The user is signed in. `detail: { session }`.
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

  /** The console's API (for the sign-in call). */
  @property({ attribute: false }) api?: AdminApi;
  /** Shown in the alert until the next attempt: why the user is here again. */
  @property() message = '';

  @state() private error = '';
  /** The field the error is about, marked invalid and given focus. */
  @state() private invalid: 'email' | 'password' | 'code' | '' = '';
  @state() private busy = false;
  /** The password passed and a second factor is on: the code (or a passkey) is asked next. */
  @state() private secondStep = false;
  /** The user's factors, for the second step: a passkey button when it has one. */
  @state() private methods: readonly MfaMethod[] = [];

  override firstUpdated() {
    this.input('email').focus();
  }

  override willUpdate(changed: PropertyValues<this>) {
    if (changed.has('message') && this.message) this.error = this.message;
  }

  private input(name: 'email' | 'password' | 'code') {
    return this.renderRoot.querySelector<HTMLInputElement>(`#${name}`)!;
  }

  /** The second step asks for a code: the user has the authenticator app (a passkey-only user has no code to type). */
  private get takesCode() {
    return this.methods.some((method) => method !== 'passkey');
  }

  private async refuse(error: string, field: 'email' | 'password' | 'code') {
    this.error = error;
    this.invalid = field;
    await this.updateComplete;
    // A passkey-only second step has no field: focus goes back to its button.
    const target: HTMLInputElement | HTMLButtonElement | null =
      field === 'code' && !this.takesCode ? this.renderRoot.querySelector('#use-passkey') : this.input(field);
    target?.focus();
    if (field === 'password') this.input(field).select();
  }

  private async handleSubmit(event: SubmitEvent) {
    event.preventDefault();
    const email = this.input('email').value.trim();
    const password = this.input('password').value;
    if (!email) return this.refuse('Informe o seu e-mail.', 'email');
    if (!password) return this.refuse('Informe a sua senha.', 'password');
    this.busy = true;
    this.error = '';
    this.invalid = '';
    try {
      const answer = await (this.api ?? new AdminApi()).signIn(email, password);
      this.input('password').value = '';
      if ('mfaRequired' in answer) {
        this.secondStep = true;
        this.methods = answer.methods;
        await this.updateComplete;
        this.renderRoot.querySelector<HTMLElement>(this.takesCode ? '#code' : '#use-passkey')?.focus();
        return;
      }
      emit(this, 'bo-signed-in', { session: answer });
    } catch (error) {
      if (!(error instanceof AdminApiError)) return this.refuse('Não foi possível entrar. Tente de novo.', 'email');
      const wait = error.code === 'sign_in_rate_limited' && error.retryAfter ? ` Tente de novo em ${waitText(error.retryAfter)}.` : '';
      await this.refuse(error.message + wait, error.code === 'invalid_credentials' ? 'password' : 'email');
    } finally {
      this.busy = false;
    }
  }

  private async handleCode(event: SubmitEvent) {
    event.preventDefault();
    const code = this.input('code').value.trim();
    if (!code) return this.refuse('Informe o código.', 'code');
    this.busy = true;
    this.error = '';
    try {
      const session = await (this.api ?? new AdminApi()).signInWithCode(code);
      emit(this, 'bo-signed-in', { session });
    } catch (error) {
      if (error instanceof AdminApiError && error.code === 'mfa_sign_in_expired') this.secondStep = false;
      await this.refuse(error instanceof AdminApiError ? error.message : 'Não foi possível entrar. Tente de novo.', 'code');
    } finally {
      this.busy = false;
    }
  }

  private async handlePasskey() {
    const api = this.api ?? new AdminApi();
    this.busy = true;
    this.error = '';
    try {
      const session = await api.signInWithPasskey(await usePasskey(await api.passkeySignInOptions()));
      emit(this, 'bo-signed-in', { session });
    } catch (error) {
      if (error instanceof AdminApiError && error.code === 'mfa_sign_in_expired') this.secondStep = false;
      await this.refuse((error as Error).message || 'Não foi possível entrar. Tente de novo.', this.secondStep ? 'code' : 'email');
    } finally {
      this.busy = false;
    }
  }

  private renderSecondStep() {
    return html`
      <form class="card" @submit=${this.handleCode} novalidate aria-labelledby="second-step-title">
        <h2 id="second-step-title">Confirme que é você</h2>
        ${
          this.takesCode
            ? html`<p class="muted">Digite o código de 6 dígitos do seu aplicativo autenticador, ou um dos seus códigos de recuperação.</p>
                ${this.renderCodeField()}`
            : html`<p class="muted">Use a sua chave de acesso para entrar.</p>`
        }
        <p id="sign-in-error" class="error" role="alert">${this.error || nothing}</p>
        ${this.takesCode ? html`<button type="submit" ?disabled=${this.busy}>${this.busy ? 'Confirmando…' : 'Confirmar'}</button>` : nothing}
        ${
          this.methods.includes('passkey')
            ? html`<button id="use-passkey" class=${this.takesCode ? 'secondary' : ''} type="button" ?disabled=${this.busy}
                @click=${() => void this.handlePasskey()}>Entrar com chave de acesso</button>`
            : nothing
        }
      </form>
    `;
  }

  private renderCodeField() {
    return html`<div class="field">
          <label for="code">Código</label>
          <input
            id="code"
            name="code"
            autocomplete="one-time-code"
            inputmode="text"
            spellcheck="false"
            required
            aria-invalid=${this.invalid === 'code' ? 'true' : 'false'}
            aria-describedby="sign-in-error"
          />
        </div>`;
  }

  override render() {
    if (this.secondStep) return this.renderSecondStep();
    return html`
      <form class="card" @submit=${this.handleSubmit} novalidate aria-labelledby="sign-in-title">
        <h2 id="sign-in-title">Entrar no console</h2>
        <p class="muted">Use o e-mail e a senha do seu usuário. Quem cria usuários e define papéis é um proprietário.</p>
        <div class="field">
          <label for="email">E-mail</label>
          <input
            id="email"
            name="email"
            type="email"
            autocomplete="username"
            spellcheck="false"
            required
            aria-invalid=${this.invalid === 'email' ? 'true' : 'false'}
            aria-describedby="sign-in-error"
          />
        </div>
        <div class="field">
          <label for="password">Senha</label>
          <input
            id="password"
            name="password"
            type="password"
            autocomplete="current-password"
            required
            aria-invalid=${this.invalid === 'password' ? 'true' : 'false'}
            aria-describedby="sign-in-error"
          />
        </div>
        <p id="sign-in-error" class="error" role="alert">${this.error || nothing}</p>
        <button type="submit" ?disabled=${this.busy}>${this.busy ? 'Entrando…' : 'Entrar'}</button>
      </form>
    `;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'bo-sign-in': BoSignIn;
  }
}

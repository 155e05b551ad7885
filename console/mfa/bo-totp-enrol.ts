/**
 * Setting up an authenticator app: "Configurar" asks the BFF for a new seed, drawn as a QR code (from its
 * `otpauth://` URL, on the page: the seed goes to no other server) and written out for typing; the first code from
 * the app turns it on, and the BFF answers ten one-use recovery codes, shown this once with a copy button and the
 * warning to keep them now. "Guardei os códigos" forgets them on the page.
 *
 * @event bo-mfa-enrolled - The TOTP is on and its recovery codes were put away.
 */
import { LitElement, css, html, nothing } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import QRCode from 'qrcode';
import type { AdminApi, TotpEnrolment } from '../api';
import { emit } from '../events';
import shared from '../shared.styles';

@customElement('bo-totp-enrol')
export class BoTotpEnrol extends LitElement {
  static override styles = [
    shared,
    css`
      .qr {
        display: block;
        width: 12rem;
        height: 12rem;
        image-rendering: pixelated;
      }
      code,
      .codes {
        font-family: ui-monospace, monospace;
      }
      .codes {
        columns: 2;
        padding-left: 1.25rem;
      }
      .subhead {
        font-weight: 600;
      }
      .warning {
        border-left: 4px solid var(--bo-color-danger, #b42318);
        background: #fef3f2;
        padding: 0.5rem 0.75rem;
        border-radius: 6px;
      }
    `,
  ];

  /** The back-office API of the signed-in user. */
  @property({ attribute: false }) api?: AdminApi;
  /** The level of the recovery codes' heading, to fit the page's outline. */
  @property({ type: Number, attribute: 'heading-level' }) headingLevel = 5;

  @state() private enrolment?: TotpEnrolment & { qr: string };
  @state() private recoveryCodes: string[] = [];
  @state() private error = '';
  @state() private busy = false;
  @state() private copied = '';

  private async start() {
    if (!this.api) return;
    this.busy = true;
    this.error = '';
    try {
      const enrolment = await this.api.startTotp();
      this.enrolment = { ...enrolment, qr: await QRCode.toDataURL(enrolment.otpauthUrl, { margin: 1, width: 192 }) };
      await this.updateComplete;
      this.renderRoot.querySelector<HTMLInputElement>('#totp-code')?.focus();
    } catch (error) {
      this.error = (error as Error).message;
    } finally {
      this.busy = false;
    }
  }

  private async confirm(event: SubmitEvent) {
    event.preventDefault();
    const input = this.renderRoot.querySelector<HTMLInputElement>('#totp-code')!;
    const code = input.value.replace(/\s+/g, '');
    if (!/^\d{6}$/.test(code)) {
      this.error = 'Digite os 6 dígitos que o aplicativo mostra agora.';
      input.focus();
      return;
    }
    this.busy = true;
    this.error = '';
    try {
      this.recoveryCodes = (await this.api!.confirmTotp(code)).recoveryCodes;
      this.enrolment = undefined;
      await this.updateComplete;
      this.renderRoot.querySelector<HTMLElement>('#totp-codes-title')?.focus();
    } catch (error) {
      this.error = (error as Error).message;
      input.select();
      input.focus();
    } finally {
      this.busy = false;
    }
  }

  private async copy() {
    try {
      await navigator.clipboard.writeText(this.recoveryCodes.join('\n'));
      this.copied = 'Códigos copiados para a área de transferência.';
    } catch {
      // No clipboard (an insecure origin, a refused permission): the list stays on screen to be written down.
      this.copied = 'Não foi possível copiar: anote os códigos da lista.';
    }
  }

  private done() {
    this.recoveryCodes = [];
    this.copied = '';
    emit(this, 'bo-mfa-enrolled', null);
  }

  private renderCodes() {
    return html`<section aria-labelledby="totp-codes-title" data-testid="recovery-codes">
      <div id="totp-codes-title" class="subhead" role="heading" aria-level=${this.headingLevel} tabindex="-1">Códigos de recuperação</div>
      <p class="warning" id="totp-codes-warning">
        <strong>Guarde agora:</strong> estes dez códigos não serão mostrados de novo. Cada um abre o console uma vez se
        você perder o aplicativo autenticador.
      </p>
      <ol class="codes" aria-describedby="totp-codes-warning">
        ${this.recoveryCodes.map((c) => html`<li>${c}</li>`)}
      </ol>
      <p class="muted" role="status">${this.copied || nothing}</p>
      <button type="button" class="secondary" @click=${this.copy}>Copiar códigos</button>
      <button type="button" @click=${this.done}>Guardei os códigos</button>
    </section>`;
  }

  private renderEnrolment(enrolment: TotpEnrolment & { qr: string }) {
    return html`<form @submit=${(e: SubmitEvent) => void this.confirm(e)} novalidate aria-labelledby="totp-title">
      <p>Leia o código QR com o seu aplicativo autenticador, ou digite a chave nele.</p>
      <img class="qr" src=${enrolment.qr} alt="Código QR para o aplicativo autenticador" />
      <p>Chave: <code data-testid="totp-secret">${enrolment.secret}</code></p>
      <div class="field">
        <label for="totp-code">Código de 6 dígitos do aplicativo</label>
        <input id="totp-code" name="code" inputmode="numeric" autocomplete="one-time-code" maxlength="8"
          aria-invalid=${this.error ? 'true' : 'false'} aria-describedby="totp-error" />
      </div>
      <p id="totp-error" class="error" role="alert">${this.error || nothing}</p>
      <button type="submit" ?disabled=${this.busy}>${this.busy ? 'Confirmando…' : 'Ativar'}</button>
    </form>`;
  }

  override render() {
    if (this.recoveryCodes.length > 0) return this.renderCodes();
    if (this.enrolment) return this.renderEnrolment(this.enrolment);
    return html`${this.error ? html`<p class="error" role="alert">${this.error}</p>` : nothing}
      <button type="button" ?disabled=${this.busy} @click=${() => void this.start()}>
        ${this.busy ? 'Preparando…' : 'Configurar aplicativo autenticador'}
      </button>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'bo-totp-enrol': BoTotpEnrol;
  }
}

/**
 * The step-up: a modal dialog asking for the second factor again before an action the BFF guards (money above the
 * approval threshold, users, API keys, webhook endpoints) when the session's last proof is over 5 minutes old. A code
 * (the app's or a recovery code) or a passkey, whichever the user has; `ask()` resolves true once the BFF accepted
 * one, false when the user cancels (the action then fails with its own message). Focus goes to the dialog's first
 * field and back to where it was when it closes.
 */
import { LitElement, css, html, nothing } from 'lit';
import { customElement, property, query, state } from 'lit/decorators.js';
import type { AdminApi, MfaMethod } from '../api';
import shared from '../shared.styles';
import { usePasskey } from './passkey';

@customElement('bo-step-up')
export class BoStepUp extends LitElement {
  static override styles = [
    shared,
    css`
      dialog {
        max-width: min(30rem, calc(100vw - 2rem));
        border: 1px solid var(--bo-color-border, #d5dbe3);
        border-radius: var(--bo-radius, 12px);
        padding: 1rem 1.25rem 1.25rem;
      }
      dialog::backdrop {
        background: rgb(16 24 40 / 0.45);
      }
      h2 {
        margin-top: 0;
      }
      .actions {
        display: flex;
        flex-wrap: wrap;
        gap: 0.5rem;
        margin-top: 0.75rem;
      }
    `,
  ];

  /** The back-office API of the signed-in user. */
  @property({ attribute: false }) api?: AdminApi;

  @state() private methods: readonly MfaMethod[] = [];
  @state() private error = '';
  @state() private busy = false;
  @query('dialog') private dialog?: HTMLDialogElement;
  private settle?: (proven: boolean) => void;
  private returnFocus?: HTMLElement;

  /** Asks for the factor (`methods`: what the user has); true once proven. One question at a time. */
  async ask(methods: readonly MfaMethod[]): Promise<boolean> {
    this.settle?.(false);
    this.methods = methods;
    this.error = '';
    this.returnFocus = deepActive();
    await this.updateComplete;
    if (!this.dialog?.open) this.dialog?.showModal();
    this.renderRoot.querySelector<HTMLElement>(this.hasCode ? '#su-code' : '#su-passkey')?.focus();
    return new Promise((resolve) => (this.settle = resolve));
  }

  private get hasCode() {
    return this.methods.includes('totp') || this.methods.includes('recovery_code');
  }

  private async prove(proof: () => Promise<{ code: string } | { response: unknown }>) {
    this.busy = true;
    this.error = '';
    try {
      await this.api!.proveAgain(await proof());
      this.finish(true);
    } catch (error) {
      this.error = (error as Error).message;
      this.renderRoot.querySelector<HTMLInputElement>('#su-code')?.select();
    } finally {
      this.busy = false;
    }
  }

  private handleCode(event: SubmitEvent) {
    event.preventDefault();
    const code = this.renderRoot.querySelector<HTMLInputElement>('#su-code')!.value.trim();
    if (!code) {
      this.error = 'Informe o código.';
      return;
    }
    void this.prove(async () => ({ code }));
  }

  private finish(proven: boolean) {
    const settle = this.settle;
    this.settle = undefined;
    this.dialog?.close();
    settle?.(proven);
  }

  private handleClose() {
    const input = this.renderRoot.querySelector<HTMLInputElement>('#su-code');
    if (input) input.value = '';
    this.returnFocus?.focus();
    this.finish(false);
  }

  override render() {
    return html`<dialog aria-labelledby="su-title" aria-describedby="su-why" @close=${this.handleClose}>
      <h2 id="su-title">Confirme que é você</h2>
      <p id="su-why">Esta operação pede o seu segundo fator de novo.</p>
      ${
        this.hasCode
          ? html`<form @submit=${this.handleCode} novalidate>
              <div class="field">
                <label for="su-code">Código do aplicativo ou de recuperação</label>
                <input id="su-code" name="code" autocomplete="one-time-code" spellcheck="false" aria-describedby="su-error"
                  aria-invalid=${this.error ? 'true' : 'false'} />
              </div>
              <button type="submit" ?disabled=${this.busy}>${this.busy ? 'Confirmando…' : 'Confirmar'}</button>
            </form>`
          : nothing
      }
      <p id="su-error" class="error" role="alert">${this.error || nothing}</p>
      <div class="actions">
        ${
          this.methods.includes('passkey')
            ? html`<button id="su-passkey" class="secondary" type="button" ?disabled=${this.busy}
                @click=${() => void this.prove(async () => ({ response: await usePasskey(await this.api!.stepUpOptions()) }))}>Usar chave de acesso</button>`
            : nothing
        }
        <button class="secondary" type="button" @click=${() => this.dialog?.close()}>Cancelar</button>
      </div>
    </dialog>`;
  }
}

/** The focused element, through shadow roots. */
function deepActive(): HTMLElement | undefined {
  let active = document.activeElement;
  while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
  return active instanceof HTMLElement ? active : undefined;
}

declare global {
  interface HTMLElementTagNameMap {
    'bo-step-up': BoStepUp;
  }
}

/**
 * The one showing of a webhook endpoint's new secret: a modal dialog with the secret, a copy button and the warning
 * that it will not be shown again. Closing it (the button or Escape) forgets the secret: it is kept nowhere in the
 * page afterwards, neither in this element nor in its DOM.
 */
import { LitElement, css, html, nothing } from 'lit';
import { customElement, query, state } from 'lit/decorators.js';
import shared from '../shared.styles';

/**
 * @event bo-secret-closed - The dialog was closed and the secret forgotten.
 */
@customElement('bo-webhook-secret')
export class BoWebhookSecret extends LitElement {
  static override styles = [
    shared,
    css`
      dialog {
        max-width: min(36rem, calc(100vw - 2rem));
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
      .warning {
        border-left: 4px solid var(--bo-color-danger, #b42318);
        background: #fef3f2;
        padding: 0.5rem 0.75rem;
        border-radius: 6px;
      }
      input {
        font-family: ui-monospace, monospace;
      }
      .actions {
        display: flex;
        flex-wrap: wrap;
        gap: 0.5rem;
        margin-top: 0.75rem;
      }
    `,
  ];

  @state() private secret = '';
  @state() private url = '';
  @state() private copied = '';
  @query('dialog') private dialog?: HTMLDialogElement;

  /** Shows `secret`, the new secret of the endpoint at `url`, until the merchant closes the dialog. */
  async show(secret: string, url: string) {
    this.secret = secret;
    this.url = url;
    this.copied = '';
    await this.updateComplete;
    if (!this.dialog?.open) this.dialog?.showModal();
    this.renderRoot.querySelector<HTMLElement>('#ws-copy')?.focus();
  }

  private async copy() {
    const input = this.renderRoot.querySelector<HTMLInputElement>('#ws-secret');
    try {
      await navigator.clipboard.writeText(this.secret);
      this.copied = 'Segredo copiado para a área de transferência.';
    } catch {
      // No clipboard (an insecure origin, a refused permission): the text is selected for Ctrl+C instead.
      input?.select();
      this.copied = 'Não foi possível copiar: o segredo está selecionado, copie-o com Ctrl+C.';
    }
  }

  private handleClose() {
    this.secret = '';
    this.url = '';
    this.copied = '';
    this.dispatchEvent(new Event('bo-secret-closed'));
  }

  override render() {
    return html`<dialog aria-labelledby="ws-title" aria-describedby="ws-warning" @close=${this.handleClose}>
      <h2 id="ws-title">Novo segredo do endpoint</h2>
      <p id="ws-warning" class="warning">
        <strong>Copie o segredo agora:</strong> ele não será mostrado de novo. Configure-o no seu servidor para verificar a
        assinatura dos webhooks.
      </p>
      ${
        this.secret
          ? html`<p class="muted">${this.url}</p>
              <div class="field">
                <label for="ws-secret">Segredo</label>
                <input id="ws-secret" readonly .value=${this.secret} autocomplete="off" spellcheck="false" />
              </div>
              <p class="muted" role="status">${this.copied || nothing}</p>
              <div class="actions">
                <button id="ws-copy" type="button" @click=${this.copy}>Copiar segredo</button>
                <button class="secondary" type="button" @click=${() => this.dialog?.close()}>Fechar</button>
              </div>`
          : nothing
      }
    </dialog>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'bo-webhook-secret': BoWebhookSecret;
  }
}

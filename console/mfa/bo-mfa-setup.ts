/**
 * The signed-in user's second factor (`GET /api/admin/me/mfa`): whether the authenticator app is on (else its set-up,
 * ./bo-totp-enrol.ts), the recovery codes left, and the passkeys, each removable, with "Adicionar chave de acesso".
 * In "Minha conta" for every role; alone on the page (`forced`) when the user's role needs a second factor and it
 * has none yet: the BFF then refuses everything else (403 `mfa_enrolment_required`). A change of a user who already
 * has a factor may ask for it again (the step-up dialog of `<bo-app>`).
 *
 * @event bo-mfa-enrolled - A factor was turned on (the app, its recovery codes put away, or a passkey).
 */
import { LitElement, css, html, nothing } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import type { AdminApi, MfaStatus } from '../api';
import { emit, notify } from '../events';
import { formatDate } from '../format';
import { Loading } from '../loading';
import shared from '../shared.styles';
import { createPasskey, passkeysAvailable } from './passkey';
import './bo-totp-enrol';

@customElement('bo-mfa-setup')
export class BoMfaSetup extends LitElement {
  static override styles = [
    shared,
    css`
      .factor {
        margin: 0 0 1rem;
      }
      .subhead {
        font-weight: 600;
        margin: 1rem 0 0.5rem;
      }
    `,
  ];

  /** The back-office API of the signed-in user. */
  @property({ attribute: false }) api?: AdminApi;
  /** The enrolment is all the user may do now: say so, and lead with it. */
  @property({ type: Boolean }) forced = false;

  @state() private status?: MfaStatus;
  @state() private error = '';
  @state() private busy = '';
  private readonly loading = new Loading(this);

  override connectedCallback() {
    super.connectedCallback();
    void this.refresh();
    this.addEventListener('bo-mfa-enrolled', () => void this.refresh());
  }

  /** The level of this section's own headings: one below its title's. */
  private get subLevel() {
    return this.forced ? 3 : 4;
  }

  override firstUpdated() {
    // Alone on the page after the sign-in: the user lands on what to do.
    if (this.forced) this.renderRoot.querySelector<HTMLElement>('#mfa-title')?.focus();
  }

  async refresh() {
    const api = this.api;
    if (!api) return;
    await this.loading.run(async () => {
      this.status = await api.mfaStatus();
    });
  }

  /** Runs one change (`what`, for the busy button), then reads the status again; its failure is shown. */
  private async change(what: string, action: () => Promise<void>) {
    this.busy = what;
    this.error = '';
    try {
      await action();
      await this.refresh();
    } catch (error) {
      this.error = (error as Error).message;
    } finally {
      this.busy = '';
    }
  }

  private addPasskey() {
    return this.change('add', async () => {
      const api = this.api!;
      await api.addPasskey(await createPasskey(await api.passkeyOptions()));
      notify(this, 'Chave de acesso adicionada.', 'success');
      emit(this, 'bo-mfa-enrolled', null);
    });
  }

  private removePasskey(id: string) {
    return this.change(id, async () => {
      await this.api!.removePasskey(id);
      notify(this, 'Chave de acesso removida.', 'success');
    });
  }

  private renderPasskeys(status: MfaStatus) {
    return html`<div class="subhead" role="heading" aria-level=${this.subLevel} id="mfa-passkeys-title">Chaves de acesso</div>
      ${
        status.passkeys.length > 0
          ? html`<ul aria-labelledby="mfa-passkeys-title" data-testid="passkeys">
              ${status.passkeys.map(
                (p, i) => html`<li>
                  Chave ${i + 1}, adicionada em ${formatDate(p.createdAt)}${p.lastUsedAt ? `, usada em ${formatDate(p.lastUsedAt)}` : ''}
                  <button class="danger small" type="button" aria-label="Remover a chave ${i + 1}, adicionada em ${formatDate(p.createdAt)}"
                    ?disabled=${this.busy !== ''} @click=${() => void this.removePasskey(p.id)}>${this.busy === p.id ? 'Removendo…' : 'Remover'}</button>
                </li>`,
              )}
            </ul>`
          : html`<p class="muted">Nenhuma chave de acesso.</p>`
      }
      ${
        passkeysAvailable()
          ? html`<button class="secondary" type="button" ?disabled=${this.busy !== ''} @click=${() => void this.addPasskey()}>
              ${this.busy === 'add' ? 'Aguardando a chave…' : 'Adicionar chave de acesso'}
            </button>`
          : html`<p class="muted">Este navegador não oferece chaves de acesso.</p>`
      }`;
  }

  override render() {
    const status = this.status;
    const totpOn = status?.methods.includes('totp') ?? false;
    return html`<section class=${this.forced ? 'card' : ''} aria-labelledby="mfa-title" aria-busy=${this.loading.busy ? 'true' : 'false'}>
      ${
        this.forced
          ? html`<h2 id="mfa-title" tabindex="-1">Configure o segundo fator</h2>
              <p>O seu perfil exige um segundo fator para usar o console. Configure um aplicativo autenticador ou uma chave de acesso para continuar.</p>`
          : html`<h3 id="mfa-title" tabindex="-1">Segundo fator</h3>`
      }
      ${this.loading.error ? html`<p class="error" role="alert">${this.loading.error}</p>` : nothing}
      ${
        status
          ? html`<div class="subhead" role="heading" aria-level=${this.subLevel}>Aplicativo autenticador</div>
              <div class="factor">
                ${
                  totpOn
                    ? html`<p data-testid="totp-on">Ativado. Códigos de recuperação restantes: ${status.recoveryCodesLeft}.</p>`
                    : html`<bo-totp-enrol .api=${this.api} heading-level=${this.subLevel + 1}></bo-totp-enrol>`
                }
              </div>
              ${this.renderPasskeys(status)}
              ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : nothing}`
          : html`<p class="muted">Carregando…</p>`
      }
    </section>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'bo-mfa-setup': BoMfaSetup;
  }
}

/**
 * The named API keys, for owners: each with name, role, prefix, creator, creation, last use and expiry; a key made
 * (shown this once, with a copy button and the warning that it will not be shown again: closing it forgets it), and
 * a key revoked after a confirmation (at once, on every instance of the BFF).
 */
import { LitElement, css, html, nothing } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import type { AdminApi, ApiKey, Role } from '../api';
import { confirmStep } from '../confirm/confirm-step';
import confirmStyles from '../confirm/confirm.styles';
import { Confirmation } from '../confirm/confirmation';
import { hasRole } from '../../core/backoffice';
import { notify } from '../events';
import { formatDate, roleLabel } from '../format';
import { Loading } from '../loading';
import { loadError, ownersOnly, sectionHead } from '../section';
import shared from '../shared.styles';
import { apiKeyForm, readApiKeyForm } from './api-key-form';

const stateOf = (key: ApiKey): { text: string; tone: 'good' | 'bad' } =>
  key.revokedAt
    ? { text: `Revogada em ${formatDate(key.revokedAt)}`, tone: 'bad' }
    : key.expiresAt && Date.parse(key.expiresAt) <= Date.now()
      ? { text: 'Expirada', tone: 'bad' }
      : { text: 'Ativa', tone: 'good' };

@customElement('bo-api-keys')
export class BoApiKeys extends LitElement {
  static override styles = [
    shared,
    confirmStyles,
    css`
      .created {
        border-left: 4px solid var(--bo-color-danger, #b42318);
        background: #fef3f2;
        padding: 0.5rem 0.75rem;
        border-radius: 6px;
        margin-bottom: 1rem;
      }
      .created input {
        font-family: ui-monospace, monospace;
        width: 100%;
      }
      code {
        font-family: ui-monospace, monospace;
      }
    `,
  ];

  /** The back-office API of the signed-in merchant. */
  @property({ attribute: false }) api?: AdminApi;
  /** The signed-in role: only owners manage keys (a property only: the attribute is ARIA's). */
  @property({ attribute: false }) override role: Role = 'viewer';

  @state() private keys?: ApiKey[];
  @state() private errors: Record<string, string> = {};
  @state() private addError = '';
  @state() private adding = false;
  /** The key just made, shown until closed; then forgotten. */
  @state() private created?: { name: string; key: string };
  @state() private copied = '';
  private readonly loading = new Loading(this);
  private readonly confirmation = new Confirmation<ApiKey>(this, {
    id: 'ak-confirm',
    back: (key) => () => this.renderRoot.querySelector<HTMLElement>(`tr[data-key="${CSS.escape(key.id)}"] button`) ?? this.heading(),
  });

  override connectedCallback() {
    super.connectedCallback();
    void this.refresh();
  }

  async refresh() {
    const api = this.api;
    if (!api || !hasRole(this.role, 'owner')) return;
    await this.loading.run(async () => {
      this.keys = (await api.apiKeys()).data;
    });
  }

  private heading() {
    return this.renderRoot.querySelector<HTMLElement>('#ak-title');
  }

  private async add(event: SubmitEvent) {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    const read = readApiKeyForm(form);
    this.errors = read.errors ?? {};
    this.addError = '';
    if (read.errors || !this.api) {
      await this.updateComplete;
      form.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
      return;
    }
    this.adding = true;
    try {
      const { key, apiKey } = await this.api.addApiKey(read.input);
      form.reset();
      this.created = { name: apiKey.name, key };
      this.copied = '';
      await this.refresh();
      this.renderRoot.querySelector<HTMLElement>('#ak-copy')?.focus();
    } catch (error) {
      this.addError = (error as Error).message;
    } finally {
      this.adding = false;
    }
  }

  private async copy() {
    try {
      await navigator.clipboard.writeText(this.created?.key ?? '');
      this.copied = 'Chave copiada para a área de transferência.';
    } catch {
      // No clipboard (an insecure origin, a refused permission): the text is selected for Ctrl+C instead.
      this.renderRoot.querySelector<HTMLInputElement>('#ak-key')?.select();
      this.copied = 'Não foi possível copiar: a chave está selecionada, copie-a com Ctrl+C.';
    }
  }

  private closeCreated() {
    this.created = undefined;
    this.copied = '';
    void this.updateComplete.then(() => this.heading()?.focus());
  }

  private async revoke() {
    const api = this.api;
    if (!api) return;
    await this.confirmation.run(async (key) => {
      const revoked = await api.revokeApiKey(key.id);
      notify(this, `Chave ${revoked.name} revogada: ela deixa de funcionar agora.`, 'success');
      await this.refresh();
    });
  }

  private renderRow(k: ApiKey) {
    const { text, tone } = stateOf(k);
    return html`<tr data-key=${k.id} aria-current=${this.confirmation.subject?.id === k.id ? 'true' : 'false'}>
      <td data-label="Nome">${k.name}</td>
      <td data-label="Papel">${roleLabel(k.role)}</td>
      <td data-label="Prefixo"><code>${k.prefix}…</code></td>
      <td data-label="Criada por">${k.createdBy}</td>
      <td data-label="Criada em" class="nowrap">${formatDate(k.createdAt)}</td>
      <td data-label="Último uso" class="nowrap">${k.lastUsedAt ? formatDate(k.lastUsedAt) : 'nunca usada'}</td>
      <td data-label="Expira em" class="nowrap">${k.expiresAt ? formatDate(k.expiresAt) : 'não expira'}</td>
      <td data-label="Situação"><span class="pill" data-tone=${tone}>${text}</span></td>
      <td class="actions">
        ${
          k.revokedAt
            ? nothing
            : html`<button class="danger small" type="button" aria-label="Revogar a chave ${k.name}" @click=${() => this.confirmation.ask(k)}>
                Revogar
              </button>`
        }
      </td>
    </tr>`;
  }

  private renderCreated({ name, key }: { name: string; key: string }) {
    return html`<div class="created" role="region" aria-labelledby="ak-created-title" data-testid="api-key-created">
      <h3 id="ak-created-title">Chave ${name} criada</h3>
      <p><strong>Copie a chave agora: ela não será mostrada de novo.</strong> Guarde-a num cofre de segredos; quem a tiver age com o papel dela.</p>
      <label for="ak-key">Chave de API</label>
      <input id="ak-key" readonly .value=${key} @focus=${(e: FocusEvent) => (e.target as HTMLInputElement).select()} />
      <p class="muted" role="status">${this.copied}</p>
      <div class="actions">
        <button id="ak-copy" type="button" @click=${() => void this.copy()}>Copiar chave</button>
        <button class="secondary" type="button" @click=${() => this.closeCreated()}>Já guardei, fechar</button>
      </div>
    </div>`;
  }

  private renderConfirm(key: ApiKey) {
    const body = html`<p class="muted">
      Scripts que usam a chave <code>${key.prefix}…</code> (${roleLabel(key.role)}) passam a receber 401 agora, em todas as instâncias. Não há como
      desfazer: crie outra chave se precisar.
    </p>`;
    return confirmStep(
      this.confirmation,
      {
        title: `Revogar a chave ${key.name}`,
        body,
        confirm: 'Confirmar revogação',
        busy: 'Revogando…',
        danger: true,
        errorTestId: 'api-key-error',
      },
      () => void this.revoke(),
    );
  }

  override render() {
    if (!hasRole(this.role, 'owner')) {
      return ownersOnly('ak-title', 'Chaves de API', 'as chaves de API');
    }
    const keys = this.keys;
    return html`<section class="card" aria-labelledby="ak-title" aria-busy=${this.loading.busy ? 'true' : 'false'}>
      ${sectionHead('ak-title', 'Chaves de API', this.loading, () => void this.refresh())}
      <p class="muted">Uma chave por script, com o menor papel que ele precisa. Use-as no lugar do ADMIN_TOKEN: Authorization: Bearer &lt;chave&gt;.</p>
      ${this.created ? this.renderCreated(this.created) : nothing}
      ${loadError(this.loading)}
      ${
        keys && keys.length > 0
          ? html`<div class="table-wrap"><table data-testid="api-keys-table">
              <caption class="sr-only">Chaves de API</caption>
              <thead><tr><th>Nome</th><th>Papel</th><th>Prefixo</th><th>Criada por</th><th>Criada em</th><th>Último uso</th><th>Expira em</th><th>Situação</th><th><span class="sr-only">Ações</span></th></tr></thead>
              <tbody>${keys.map((k) => this.renderRow(k))}</tbody>
            </table></div>`
          : html`<p class="muted">${keys ? 'Nenhuma chave ainda.' : 'Carregando…'}</p>`
      }
      ${this.confirmation.subject ? this.renderConfirm(this.confirmation.subject) : nothing}
      ${apiKeyForm({ errors: this.errors, error: this.addError, busy: this.adding, onSubmit: (e) => void this.add(e) })}
    </section>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'bo-api-keys': BoApiKeys;
  }
}

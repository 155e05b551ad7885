/**
 * The merchant's webhook endpoints, for owners: each with its URL, event types, state (active, disabled by you,
 * disabled after failures) and since when it fails; one added (its secret shown once), disabled or enabled again, its
 * secret rotated (the new one shown once; the old one keeps signing for 24 hours), a test event sent, and its recent
 * deliveries with "Reenviar". The environment's endpoint (MERCHANT_WEBHOOK_URL) is listed and tested only.
 */
import { LitElement, html, nothing } from 'lit';
import { customElement, property, query, state } from 'lit/decorators.js';
import type { AdminApi, Role, WebhookEndpointView } from '../api';
import { hasRole } from '../../core/backoffice';
import { confirmStep } from '../confirm/confirm-step';
import confirmStyles from '../confirm/confirm.styles';
import { Confirmation } from '../confirm/confirmation';
import { notify } from '../events';
import { formatDate } from '../format';
import { Loading } from '../loading';
import { loadError, ownersOnly, sectionHead } from '../section';
import shared from '../shared.styles';
import styles from './bo-webhook-endpoints.styles';
import './bo-webhook-deliveries';
import './bo-webhook-secret';
import type { BoWebhookSecret } from './bo-webhook-secret';
import { endpointForm, readEndpointForm, typesText } from './endpoint-form';

type Confirm = { endpoint: WebhookEndpointView; kind: 'disable' | 'rotate' };

const stateOf = (e: WebhookEndpointView) =>
  !e.disabled
    ? { label: 'Ativo', tone: 'good' }
    : e.disabled.reason === 'failing'
      ? { label: 'Desativado após falhas', tone: 'bad' }
      : { label: 'Desativado por você', tone: 'neutral' };
const failingSince = (e: WebhookEndpointView) => (e.disabled?.reason === 'failing' ? e.disabled.since : null);
/** Why a test event was not delivered, when no status came: the BFF's few words (server/events/send.ts) in Portuguese. */
const REASONS: Record<string, string> = {
  timeout: 'sem resposta no prazo',
  'no answer': 'sem resposta',
  'address not allowed': 'endereço não permitido',
};

@customElement('bo-webhook-endpoints')
export class BoWebhookEndpoints extends LitElement {
  static override styles = [shared, confirmStyles, styles];

  /** The back-office API of the signed-in merchant. */
  @property({ attribute: false }) api?: AdminApi;
  /** The signed-in role: only owners manage endpoints (a property only: the attribute is ARIA's). */
  @property({ attribute: false }) override role: Role = 'viewer';

  @state() private endpoints?: WebhookEndpointView[];
  @state() private urlError = '';
  @state() private addError = '';
  @state() private adding = false;
  @state() private acting = '';
  /** The endpoint whose deliveries are open. */
  @state() private open = '';
  @query('bo-webhook-secret') private secretDialog?: BoWebhookSecret;
  /** Where focus goes back when the secret's dialog closes. */
  private returnFocus?: string;
  private readonly loading = new Loading(this);
  private readonly confirmation = new Confirmation<Confirm>(this, {
    id: 'we-confirm',
    back:
      ({ endpoint }) =>
      () =>
        this.rowButton(endpoint.id),
  });

  override connectedCallback() {
    super.connectedCallback();
    void this.refresh();
  }

  async refresh() {
    const api = this.api;
    if (!api || !hasRole(this.role, 'owner')) return;
    await this.loading.run(async () => {
      this.endpoints = (await api.webhookEndpoints()).items;
    });
  }

  private async add(event: SubmitEvent) {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    const read = readEndpointForm(form);
    this.urlError = read.error ?? '';
    this.addError = '';
    if (read.error !== undefined || !this.api) {
      await this.updateComplete;
      form.querySelector<HTMLElement>('#we-url')?.focus();
      return;
    }
    this.adding = true;
    try {
      const created = await this.api.addWebhookEndpoint(read.input);
      form.reset();
      notify(this, `Endpoint ${created.url} adicionado.`, 'success');
      await this.refresh();
      this.returnFocus = '#we-url';
      await this.secretDialog?.show(created.secret, created.url);
    } catch (error) {
      this.addError = (error as Error).message;
    } finally {
      this.adding = false;
    }
  }

  /** The first button of an endpoint's row, or the section's title when the row went. */
  private rowButton(id: string) {
    return (
      this.renderRoot.querySelector<HTMLElement>(`tr[data-endpoint="${CSS.escape(id)}"] button`) ??
      this.renderRoot.querySelector<HTMLElement>('#we-title')
    );
  }

  private async confirm() {
    const api = this.api;
    if (!api) return;
    await this.confirmation.run(async ({ endpoint, kind }) => {
      if (kind === 'disable') {
        await api.setWebhookEndpoint(endpoint.id, 'disable');
        notify(this, `Endpoint ${endpoint.url} desativado: não recebe mais eventos.`, 'success');
        await this.refresh();
        return;
      }
      const rotated = await api.rotateWebhookSecret(endpoint.id);
      notify(this, `Novo segredo de ${endpoint.url} criado; o anterior assina junto por 24 horas.`, 'success');
      await this.refresh();
      this.returnFocus = `tr[data-endpoint="${CSS.escape(endpoint.id)}"] button`;
      await this.secretDialog?.show(rotated.secret, rotated.url);
      // The dialog has focus; it gives it back to the row when it closes.
      return null;
    });
  }

  private async enable(e: WebhookEndpointView) {
    if (!this.api || this.acting) return;
    this.acting = e.id;
    try {
      await this.api.setWebhookEndpoint(e.id, 'enable');
      notify(this, `Endpoint ${e.url} reativado: recebe os eventos de agora em diante.`, 'success');
      await this.refresh();
    } catch (error) {
      notify(this, (error as Error).message, 'error');
    } finally {
      this.acting = '';
    }
  }

  private async test(e: WebhookEndpointView) {
    if (!this.api || this.acting) return;
    this.acting = e.id;
    try {
      const r = await this.api.testWebhookEndpoint(e.id);
      if (r.delivered) notify(this, `Evento de teste entregue a ${e.url} (HTTP ${r.status ?? '—'}, ${r.durationMs} ms).`, 'success');
      else
        notify(
          this,
          `Evento de teste não entregue a ${e.url}: ${r.status ? `HTTP ${r.status}` : (REASONS[r.error ?? ''] ?? 'sem resposta')}.`,
          'error',
        );
    } catch (error) {
      notify(this, (error as Error).message, 'error');
    } finally {
      this.acting = '';
    }
  }

  private async toggleDeliveries(e: WebhookEndpointView) {
    this.open = this.open === e.id ? '' : e.id;
    if (!this.open) return;
    await this.updateComplete;
    const deliveries = this.renderRoot.querySelector('bo-webhook-deliveries');
    await deliveries?.updateComplete;
    deliveries?.renderRoot.querySelector<HTMLElement>('#wd-title')?.focus();
  }

  private async secretClosed() {
    const selector = this.returnFocus;
    this.returnFocus = undefined;
    await this.updateComplete;
    (selector ? this.renderRoot.querySelector<HTMLElement>(selector) : null)?.focus();
  }

  private renderRow(e: WebhookEndpointView) {
    const s = stateOf(e);
    const stored = e.source === 'store';
    const busy = this.acting !== '' || this.confirmation.busy;
    return html`<tr data-endpoint=${e.id} aria-current=${this.open === e.id ? 'true' : 'false'}>
      <td data-label="URL" class="url">
        <span>${e.url}${stored ? nothing : html` <span class="muted">(do ambiente: MERCHANT_WEBHOOK_URL)</span>`}</span>
      </td>
      <td data-label="Tipos de evento">${typesText(e.types)}</td>
      <td data-label="Situação"><span class="pill" data-tone=${s.tone} data-testid="endpoint-state">${s.label}</span></td>
      <td data-label="Falhando desde" class="nowrap">${formatDate(failingSince(e))}</td>
      <td class="actions">
        <div class="actions">
          ${
            stored
              ? html`${
                  e.disabled
                    ? html`<button class="secondary small" type="button" ?disabled=${busy} aria-label="Reativar ${e.url}" @click=${() => this.enable(e)}>Reativar</button>`
                    : html`<button class="danger small" type="button" ?disabled=${busy} aria-label="Desativar ${e.url}" @click=${() => this.confirmation.ask({ endpoint: e, kind: 'disable' })}>Desativar</button>`
                }
                <button class="secondary small" type="button" ?disabled=${busy} aria-label="Trocar segredo de ${e.url}"
                  @click=${() => this.confirmation.ask({ endpoint: e, kind: 'rotate' })}>Trocar segredo</button>`
              : nothing
          }
          <button class="secondary small" type="button" ?disabled=${busy} aria-label="Enviar teste a ${e.url}"
            @click=${() => this.test(e)}>${this.acting === e.id ? 'Enviando…' : 'Enviar teste'}</button>
          <button class="secondary small" type="button" aria-expanded=${this.open === e.id ? 'true' : 'false'}
            aria-label="Entregas de ${e.url}" @click=${() => this.toggleDeliveries(e)}>Entregas</button>
        </div>
      </td>
    </tr>`;
  }

  private renderConfirm({ endpoint, kind }: Confirm) {
    const body = html`<p class="url">${endpoint.url}</p>
      <p class="muted">
        ${
          kind === 'disable'
            ? 'Ele deixa de receber eventos; os eventos desse período não lhe serão enviados depois de reativado.'
            : 'Um novo segredo é criado e mostrado uma única vez. O atual continua assinando junto por 24 horas, para você trocar sem perder entregas.'
        }
      </p>`;
    return confirmStep(
      this.confirmation,
      {
        title: kind === 'disable' ? 'Desativar o endpoint' : 'Trocar o segredo do endpoint',
        body,
        confirm: kind === 'disable' ? 'Confirmar desativação' : 'Trocar segredo',
        danger: kind === 'disable',
        blocked: this.acting !== '',
      },
      () => void this.confirm(),
    );
  }

  override render() {
    if (!hasRole(this.role, 'owner')) {
      return ownersOnly('we-title', 'Endpoints de webhook', 'os endpoints de webhook');
    }
    const list = this.endpoints;
    const opened = list?.find((e) => e.id === this.open);
    return html`<section class="card" aria-labelledby="we-title" aria-busy=${this.loading.busy ? 'true' : 'false'}>
      ${sectionHead('we-title', 'Endpoints de webhook', this.loading, () => void this.refresh())}
      ${loadError(this.loading)}
      ${
        list && list.length > 0
          ? html`<div class="table-wrap"><table data-testid="endpoints-table">
              <caption class="sr-only">Endpoints que recebem os webhooks da loja</caption>
              <thead><tr><th>URL</th><th>Tipos de evento</th><th>Situação</th><th>Falhando desde</th><th><span class="sr-only">Ações</span></th></tr></thead>
              <tbody>${list.map((e) => this.renderRow(e))}</tbody>
            </table></div>`
          : html`<p class="muted">${list ? 'Nenhum endpoint ainda: adicione o primeiro abaixo.' : 'Carregando…'}</p>`
      }
      ${this.confirmation.subject ? this.renderConfirm(this.confirmation.subject) : nothing}
      ${opened ? html`<bo-webhook-deliveries .api=${this.api} endpoint-id=${opened.id} .url=${opened.url}></bo-webhook-deliveries>` : nothing}
      ${endpointForm({ urlError: this.urlError, error: this.addError, busy: this.adding, onSubmit: (e) => void this.add(e) })}
      <bo-webhook-secret @bo-secret-closed=${this.secretClosed}></bo-webhook-secret>
    </section>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'bo-webhook-endpoints': BoWebhookEndpoints;
  }
}

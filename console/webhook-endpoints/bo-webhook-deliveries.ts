/**
 * One webhook endpoint's recent deliveries: the latest events sent (or to be sent) to it, each with where its
 * delivery stands (state, attempts, the last HTTP status, the next attempt), and "Reenviar" to queue it again. The
 * BFF lists deliveries under the events of its pull feed (`GET /webhook-events`, oldest first), so the first read
 * walks the feed to its end; later reads start from the oldest event kept.
 */
import { LitElement, html, nothing, type PropertyValues } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import type { AdminApi, EventDeliveryView, MerchantEventView } from '../api';
import { notify } from '../events';
import { eventTypeLabel, formatDate } from '../format';
import { Loading } from '../loading';
import shared from '../shared.styles';

/** Events kept and shown: the most recent ones delivered (or due) to the endpoint. */
const SHOWN = 20;
/** Events read per call, the feed's largest page. */
const PAGE = 500;
/** Pages read at most in one refresh (a feed of 25 000 events); the list says when it stopped there. */
const MAX_PAGES = 50;

const STATES: Record<EventDeliveryView['state'], { label: string; tone: 'good' | 'bad' | 'wait' }> = {
  pending: { label: 'Pendente', tone: 'wait' },
  delivered: { label: 'Entregue', tone: 'good' },
  failed: { label: 'Falhou', tone: 'bad' },
};

type Row = { event: MerchantEventView; delivery: EventDeliveryView };

@customElement('bo-webhook-deliveries')
export class BoWebhookDeliveries extends LitElement {
  static override styles = [shared];

  /** The back-office API of the signed-in merchant. */
  @property({ attribute: false }) api?: AdminApi;
  /** The endpoint whose deliveries are shown. */
  @property({ attribute: 'endpoint-id' }) endpointId = '';
  /** Its URL, for the names of the table and the buttons. */
  @property({ attribute: false }) url = '';

  @state() private rows?: Row[];
  @state() private truncated = false;
  @state() private sending = '';
  /** The feed cursor just before the oldest event kept: a refresh reads on from there. */
  private from: string | undefined;
  private readonly loading = new Loading(this);

  override updated(changed: PropertyValues<this>) {
    if (changed.has('endpointId') && this.endpointId) {
      this.rows = undefined;
      this.from = undefined;
      void this.refresh();
    }
  }

  /** Reads the feed from the oldest event kept (the whole feed the first time). */
  async refresh() {
    const api = this.api;
    const id = this.endpointId;
    if (!api || !id) return;
    await this.loading.run(async () => {
      const kept: Row[] = [];
      let after = this.from;
      let pages = 0;
      for (;;) {
        const page = await api.webhookEvents(after, PAGE);
        for (const event of page.items) {
          const delivery = event.deliveries.find((d) => d.endpointId === id);
          if (delivery) kept.push({ event, delivery });
        }
        kept.splice(0, Math.max(0, kept.length - SHOWN));
        pages += 1;
        if (page.items.length < PAGE || !page.nextCursor || page.nextCursor === after || pages >= MAX_PAGES) {
          this.truncated = page.items.length === PAGE && pages >= MAX_PAGES;
          if (kept.length === 0) this.from = page.nextCursor ?? after;
          break;
        }
        after = page.nextCursor;
      }
      if (id !== this.endpointId) return;
      if (kept.length > 0) this.from = String(kept[0]!.event.seq - 1);
      this.rows = kept.reverse();
    });
  }

  private async redeliver(event: MerchantEventView) {
    if (!this.api || this.sending) return;
    this.sending = event.id;
    try {
      await this.api.redeliver(event.id, this.endpointId);
      notify(this, `Evento ${eventTypeLabel(event.type)} reenviado: a entrega está na fila.`, 'success');
      await this.refresh();
    } catch (error) {
      notify(this, (error as Error).message, 'error');
    } finally {
      this.sending = '';
    }
  }

  private renderRow({ event, delivery }: Row) {
    const state = STATES[delivery.state] ?? { label: delivery.state, tone: 'neutral' };
    // The button's name starts with what it shows, whichever it shows (axe's label-content-name-mismatch).
    const action = this.sending === event.id ? 'Reenviando…' : 'Reenviar';
    return html`<tr>
      <td data-label="Evento"><span>${eventTypeLabel(event.type)} <code class="muted">${event.id}</code></span></td>
      <td data-label="Criado em" class="nowrap">${formatDate(event.createdAt)}</td>
      <td data-label="Situação"><span class="pill" data-tone=${state.tone}>${state.label}</span></td>
      <td data-label="Tentativas" class="num">${delivery.attempts}</td>
      <td data-label="Último status" class="num">${delivery.lastStatus ?? '—'}</td>
      <td data-label="Próxima tentativa" class="nowrap">${formatDate(delivery.nextAt)}</td>
      <td class="actions">
        <button class="secondary small" type="button" ?disabled=${this.sending !== ''} @click=${() => this.redeliver(event)}
          aria-label="${action} ${eventTypeLabel(event.type)} ${event.id}">${action}</button>
      </td>
    </tr>`;
  }

  override render() {
    const rows = this.rows;
    return html`<div aria-busy=${this.loading.busy ? 'true' : 'false'}>
      <div class="head">
        <h3 id="wd-title" tabindex="-1">Entregas recentes <span class="muted url">· ${this.url}</span></h3>
        <button class="secondary small" type="button" ?disabled=${this.loading.busy} @click=${() => this.refresh()}
          aria-label="Atualizar entregas de ${this.url}">Atualizar</button>
      </div>
      ${this.loading.error ? html`<p class="error" role="alert">${this.loading.error}</p>` : nothing}
      ${this.truncated ? html`<p class="muted">O histórico de eventos é longo: a leitura parou antes do fim. Atualize para continuar.</p>` : nothing}
      ${
        rows && rows.length > 0
          ? html`<div class="table-wrap"><table data-testid="deliveries">
              <caption class="sr-only">Entregas recentes para ${this.url}</caption>
              <thead><tr><th>Evento</th><th>Criado em</th><th>Situação</th><th class="num">Tentativas</th><th class="num">Último status</th>
                <th>Próxima tentativa</th><th><span class="sr-only">Ação</span></th></tr></thead>
              <tbody>${rows.map((r) => this.renderRow(r))}</tbody>
            </table></div>`
          : html`<p class="muted">${rows ? 'Nenhuma entrega para este endpoint ainda.' : 'Carregando…'}</p>`
      }
    </div>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'bo-webhook-deliveries': BoWebhookDeliveries;
  }
}

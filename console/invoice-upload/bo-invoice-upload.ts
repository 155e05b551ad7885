import { LitElement, css, html, nothing, type PropertyValues } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import { hasRole, type DocumentView } from '../../core/backoffice';
import type { AdminApi, Role } from '../api';
import { notify } from '../events';
import { formatBytes, formatDate } from '../format';
import shared from '../shared.styles';

/** The BFF refuses larger invoices (413); checking first spares the merchant a long upload. */
const MAX_BYTES = 10 * 1024 * 1024;
const DOCUMENT_STATUS: Record<string, string> = { Uploaded: 'Enviado', AwaitingUpload: 'Aguardando envio', Expired: 'Expirado' };

/**
 * Attaches the invoice PDF of a payment request, with a progress bar fed by the upload's own progress events, and
 * lists the request's documents (each can be deleted). A viewer sees the documents only.
 *
 * @event bo-notice - A status message for the page's live region.
 */
@customElement('bo-invoice-upload')
export class BoInvoiceUpload extends LitElement {
  static override styles = [
    shared,
    css`
      progress {
        width: 100%;
        height: 0.9rem;
        accent-color: var(--bo-color-primary, #1849a9);
      }
      .progress {
        margin: 0.5rem 0;
      }
    `,
  ];

  @state() private documents?: DocumentView[];
  @state() private progress: number | undefined;
  @state() private error = '';
  @state() private listError = '';

  /** The back-office API of the signed-in merchant. */
  @property({ attribute: false }) api?: AdminApi;
  /** The payment request the invoice belongs to. */
  @property({ attribute: 'request-id' }) requestId = '';
  /** The signed-in role: operators and owners upload and delete (a property only: the attribute is ARIA's). */
  @property({ attribute: false }) override role: Role = 'viewer';

  override updated(changed: PropertyValues<this>) {
    if (changed.has('requestId')) {
      this.documents = undefined;
      this.progress = undefined;
      this.error = '';
      void this.loadDocuments();
    }
  }

  private async loadDocuments() {
    if (!this.api || !this.requestId) return;
    try {
      this.documents = (await this.api.documents(this.requestId)).items;
      this.listError = '';
    } catch (error) {
      this.listError = (error as Error).message;
    }
  }

  private async handleSubmit(event: SubmitEvent) {
    event.preventDefault();
    const input = (event.target as HTMLFormElement).querySelector('input')!;
    const file = input.files?.[0];
    this.error = !file
      ? 'Escolha o arquivo PDF da nota fiscal.'
      : file.type !== 'application/pdf' && !/\.pdf$/i.test(file.name)
        ? 'A nota fiscal deve ser um PDF.'
        : file.size > MAX_BYTES
          ? 'A nota fiscal deve ter no máximo 10 MiB.'
          : file.size === 0
            ? 'O arquivo está vazio.'
            : '';
    if (this.error || !file || !this.api) return input.focus();
    this.progress = 0;
    try {
      await this.api.uploadInvoice(this.requestId, file, (fraction) => (this.progress = Math.round(fraction * 100)));
      input.value = '';
      notify(this, `Nota fiscal ${file.name} enviada.`, 'success');
      await this.loadDocuments();
    } catch (error) {
      this.error = (error as Error).message;
      this.progress = undefined;
    }
  }

  private async handleDelete(doc: DocumentView) {
    try {
      await this.api!.deleteDocument(doc.id);
      notify(this, `Documento ${doc.fileName} excluído.`, 'success');
    } catch (error) {
      notify(this, (error as Error).message, 'error');
    }
    await this.loadDocuments();
  }

  private renderDocuments() {
    if (this.listError) return html`<p class="error" role="alert">${this.listError}</p>`;
    if (!this.documents) return html`<p class="muted">Carregando documentos…</p>`;
    if (this.documents.length === 0) return html`<p class="muted">Nenhum documento anexado.</p>`;
    const writer = hasRole(this.role, 'operator');
    return html`<div class="table-wrap"><table>
      <caption class="sr-only">Documentos da solicitação</caption>
      <thead><tr><th>Arquivo</th><th>Tipo</th><th>Situação</th><th class="num">Tamanho</th><th>Enviado em</th>${
        writer ? html`<th><span class="sr-only">Ação</span></th>` : nothing
      }</tr></thead>
      <tbody>
        ${this.documents.map(
          (d) => html`<tr>
            <td data-label="Arquivo">${d.fileName}</td>
            <td data-label="Tipo">${d.type === 'Invoice' ? 'Nota fiscal' : d.type}</td>
            <td data-label="Situação"><span class="pill" data-tone=${d.status === 'Uploaded' ? 'good' : d.status === 'Expired' ? 'bad' : 'wait'}>${DOCUMENT_STATUS[d.status ?? ''] ?? d.status}</span></td>
            <td class="num" data-label="Tamanho">${formatBytes(d.size)}</td>
            <td class="nowrap" data-label="Enviado em">${formatDate(d.creationDate)}</td>
            ${
              writer
                ? html`<td class="actions"><button class="danger small" type="button" aria-label="Excluir ${d.fileName}" @click=${() => this.handleDelete(d)}>Excluir</button></td>`
                : nothing
            }
          </tr>`,
        )}
      </tbody>
    </table></div>`;
  }

  override render() {
    const uploading = this.progress !== undefined && this.progress < 100 && !this.error;
    return html`
      <section aria-labelledby="invoice-title">
        <h3 id="invoice-title">Nota fiscal</h3>
        ${hasRole(this.role, 'operator') ? this.renderForm(uploading) : nothing}
        <h3>Documentos</h3>
        ${this.renderDocuments()}
      </section>
    `;
  }

  private renderForm(uploading: boolean) {
    return html`
        <form @submit=${this.handleSubmit} novalidate>
          <div class="row end">
            <div class="field">
              <label for="invoice-file">Arquivo PDF (até 10 MiB)</label>
              <input id="invoice-file" type="file" accept="application/pdf,.pdf"
                aria-invalid=${this.error ? 'true' : 'false'} aria-describedby="invoice-error" />
            </div>
            <div class="field narrow"><button type="submit" ?disabled=${uploading}>Enviar nota fiscal</button></div>
          </div>
          <p id="invoice-error" class="error" role="alert">${this.error || nothing}</p>
        </form>
        ${
          this.progress !== undefined
            ? html`<div class="progress">
              <label for="invoice-progress" class="label">Envio da nota fiscal: ${this.progress}%</label>
              <progress id="invoice-progress" max="100" .value=${this.progress}>${this.progress}%</progress>
            </div>`
            : nothing
        }
    `;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'bo-invoice-upload': BoInvoiceUpload;
  }
}

/**
 * The form that adds a webhook endpoint: its URL (http or https, no user or password in it) and the event types it
 * wants, from the catalogue of the merchant's events (none ticked: every type). `<bo-webhook-endpoints>` renders it
 * and sends it.
 */
import { html, nothing } from 'lit';
import { MERCHANT_EVENT_TYPES, type MerchantEventType } from '../../core/backoffice';
import type { WebhookEndpointInput } from '../api';
import { eventTypeLabel } from '../format';

/** An address the BFF takes: http or https, without user or password. */
export function isWebhookUrl(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const url = new URL(value);
  return (url.protocol === 'http:' || url.protocol === 'https:') && !url.username && !url.password;
}

/** The form's input, or what is wrong with its URL. */
export function readEndpointForm(form: HTMLFormElement): { input: WebhookEndpointInput; error?: undefined } | { error: string } {
  const data = new FormData(form);
  const given = data.get('url');
  const url = typeof given === 'string' ? given.trim() : '';
  if (!isWebhookUrl(url)) return { error: 'Informe um endereço http ou https, por exemplo https://loja.exemplo.com.br/webhooks.' };
  const types = data.getAll('types').filter((t): t is MerchantEventType => (MERCHANT_EVENT_TYPES as readonly unknown[]).includes(t));
  return { input: { url, ...(types.length > 0 ? { types } : {}) } };
}

/** The event types, by their label, for a list cell. */
export const typesText = (types: readonly string[]) => (types.length === 0 ? 'Todos' : types.map(eventTypeLabel).join(', '));

export function endpointForm(opts: { urlError: string; error: string; busy: boolean; onSubmit: (event: SubmitEvent) => void }) {
  return html`<form @submit=${opts.onSubmit} novalidate aria-labelledby="we-add-title">
    <h3 id="we-add-title">Adicionar endpoint</h3>
    <div class="field">
      <label for="we-url">URL do endpoint</label>
      <input id="we-url" name="url" type="url" inputmode="url" autocomplete="off" aria-invalid=${opts.urlError ? 'true' : 'false'}
        aria-describedby="we-url-hint" />
      <p id="we-url-hint" class=${opts.urlError ? 'error' : 'muted'}>
        ${opts.urlError || 'O endereço do seu servidor que recebe os webhooks assinados.'}
      </p>
    </div>
    <fieldset class="types">
      <legend>Tipos de evento</legend>
      <p class="muted" id="we-types-hint">Nenhum marcado: o endpoint recebe todos os tipos.</p>
      <div class="checks">
        ${MERCHANT_EVENT_TYPES.map(
          (type) => html`<label class="check">
            <input type="checkbox" name="types" value=${type} aria-describedby="we-types-hint" />
            <span>${eventTypeLabel(type)} <code>${type}</code></span>
          </label>`,
        )}
      </div>
    </fieldset>
    ${opts.error ? html`<p class="error" role="alert">${opts.error}</p>` : nothing}
    <button type="submit" ?disabled=${opts.busy}>${opts.busy ? 'Adicionando…' : 'Adicionar endpoint'}</button>
  </form>`;
}

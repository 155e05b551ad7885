/**
 * The form that makes a named API key: its name, its role and an optional expiry date. `<bo-api-keys>` renders it and
 * sends it; the BFF checks the name and the date again.
 */
import { html, nothing } from 'lit';
import type { NewApiKeyInput, Role } from '../api';
import { roleOptions, ROLE_CHOICES } from '../users/user-form';

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** The form's input, or the message of each field that is wrong. */
export function readApiKeyForm(form: HTMLFormElement): { input: NewApiKeyInput; errors?: undefined } | { errors: Record<string, string> } {
  const data = new FormData(form);
  const text = (name: string) => {
    const value = data.get(name);
    return typeof value === 'string' ? value.trim() : '';
  };
  const name = text('name');
  const expires = text('expires');
  const role: Role = ROLE_CHOICES.find((r) => r.role === text('role'))?.role ?? 'viewer';
  const future = expires === '' || Date.parse(`${expires}T00:00:00Z`) > Date.now();
  const errors: Record<string, string> = {
    ...(NAME.test(name) ? {} : { name: 'Use letras, números, ponto, hífen ou sublinhado (até 64), por exemplo exportacao-noturna.' }),
    ...(future ? {} : { expires: 'A data de expiração deve ser futura.' }),
  };
  if (Object.keys(errors).length > 0) return { errors };
  return { input: { name, role, ...(expires ? { expiresAt: expires } : {}) } };
}

/** The creation form; `errors` by field name, `error` the BFF's refusal. */
export function apiKeyForm(opts: { errors: Record<string, string>; error: string; busy: boolean; onSubmit: (event: SubmitEvent) => void }) {
  const { errors } = opts;
  return html`<form @submit=${opts.onSubmit} novalidate aria-labelledby="ak-add-title">
    <h3 id="ak-add-title">Criar chave de API</h3>
    <div class="row">
      <div class="field">
        <label for="ak-name">Nome</label>
        <input id="ak-name" name="name" autocomplete="off" aria-invalid=${errors.name ? 'true' : 'false'} aria-describedby="ak-name-hint" />
        <p id="ak-name-hint" class=${errors.name ? 'error' : 'muted'}>${errors.name ?? 'Para que serve: aparece na auditoria como key:nome.'}</p>
      </div>
      <div class="field">
        <label for="ak-role">Papel</label>
        <select id="ak-role" name="role">${roleOptions('viewer')}</select>
      </div>
      <div class="field">
        <label for="ak-expires">Expira em (opcional)</label>
        <input id="ak-expires" name="expires" type="date" aria-invalid=${errors.expires ? 'true' : 'false'} aria-describedby="ak-expires-hint" />
        <p id="ak-expires-hint" class=${errors.expires ? 'error' : 'muted'}>${errors.expires ?? 'Sem data, a chave vale até ser revogada.'}</p>
      </div>
    </div>
    ${opts.error ? html`<p class="error" role="alert">${opts.error}</p>` : nothing}
    <button type="submit" ?disabled=${opts.busy}>${opts.busy ? 'Criando…' : 'Criar chave'}</button>
  </form>`;
}

/**
 * The form that adds a console user: e-mail, role and a first password of at least 12 characters (the rule is said
 * beside the field, and checked here before the BFF checks it again). `<bo-users>` renders it and sends it.
 */
import { html, nothing } from 'lit';
import type { NewUserInput, Role } from '../api';

export const MIN_PASSWORD = 12;

export const ROLE_CHOICES: readonly { role: Role; label: string; hint: string }[] = [
  { role: 'viewer', label: 'Leitura', hint: 'vê e exporta' },
  { role: 'operator', label: 'Operador', hint: 'também reembolsa, transfere e paga' },
  { role: 'owner', label: 'Proprietário', hint: 'também gerencia usuários, webhooks e aprovações' },
];

export const roleOptions = (selected: Role) =>
  ROLE_CHOICES.map((r) => html`<option value=${r.role} ?selected=${r.role === selected}>${r.label} (${r.hint})</option>`);

/** The form's input, or the message of each field that is wrong. */
export function readUserForm(form: HTMLFormElement): { input: NewUserInput; errors?: undefined } | { errors: Record<string, string> } {
  const data = new FormData(form);
  const text = (name: string) => {
    const value = data.get(name);
    return typeof value === 'string' ? value : '';
  };
  const email = text('email').trim();
  const password = text('password');
  const role: Role = ROLE_CHOICES.find((r) => r.role === text('role'))?.role ?? 'viewer';
  const errors: Record<string, string> = {
    ...(/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) ? {} : { email: 'Informe um e-mail válido, por exemplo nome@empresa.com.br.' }),
    ...(password.length >= MIN_PASSWORD ? {} : { password: `A senha deve ter pelo menos ${MIN_PASSWORD} caracteres.` }),
  };
  return Object.keys(errors).length > 0 ? { errors } : { input: { email, role, password } };
}

/** The add form; `errors` by field name, `error` the BFF's refusal. */
export function userForm(opts: { errors: Record<string, string>; error: string; busy: boolean; onSubmit: (event: SubmitEvent) => void }) {
  const { errors } = opts;
  return html`<form @submit=${opts.onSubmit} novalidate aria-labelledby="us-add-title">
    <h3 id="us-add-title">Adicionar usuário</h3>
    <div class="row">
      <div class="field">
        <label for="us-email">E-mail</label>
        <input id="us-email" name="email" type="email" autocomplete="off" aria-invalid=${errors.email ? 'true' : 'false'}
          aria-describedby="us-email-hint" />
        <p id="us-email-hint" class=${errors.email ? 'error' : 'muted'}>${errors.email ?? 'O e-mail com que a pessoa entra.'}</p>
      </div>
      <div class="field">
        <label for="us-role">Papel</label>
        <select id="us-role" name="role">${roleOptions('viewer')}</select>
      </div>
    </div>
    <div class="field">
      <label for="us-password">Senha inicial</label>
      <input id="us-password" name="password" type="password" autocomplete="new-password" minlength=${MIN_PASSWORD}
        aria-invalid=${errors.password ? 'true' : 'false'} aria-describedby="us-password-hint" />
      <p id="us-password-hint" class=${errors.password ? 'error' : 'muted'}>
        ${errors.password ?? `Pelo menos ${MIN_PASSWORD} caracteres. Passe-a à pessoa por um canal seguro.`}
      </p>
    </div>
    ${opts.error ? html`<p class="error" role="alert">${opts.error}</p>` : nothing}
    <button type="submit" ?disabled=${opts.busy}>${opts.busy ? 'Adicionando…' : 'Adicionar usuário'}</button>
  </form>`;
}

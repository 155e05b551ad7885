/**
 * The sandbox portal page (`/sandbox-portal.html`): the provider's administration portal played by the demo, apart
 * from the merchant's console. It registers receivers with an account and reviews them, decides pending payment
 * requests, and completes, fails or cancels cash-outs as the bank would. It works for whoever is signed in to the
 * console as an operator or an owner (the proxy checks the session; the page only says so), and refreshes its lists
 * every few seconds so what the console just did shows up here.
 */
import { isValidCnpj } from '../../core/cpf';
import { formatMoney } from '../../core/money';
import { byId, messageOf, RequestError } from './common';
import * as portal from './portal-api';
import { cashOutsTable, receiversTable, requestsTable, type Actions } from './portal-tables';

const REFRESH_MS = 3_000;
/** As the console names the roles (console/format.ts). */
const ROLE_NAMES = { viewer: 'Leitura', operator: 'Operador', owner: 'Proprietário' } as const;

const result = byId('portal-result');
const errorLine = byId('portal-error');
let busy = false;

/** What a refusal means here, in pt-BR: the proxy's 401 and 403 are about the console's session and role. */
function explain(error: unknown): string {
  if (error instanceof RequestError && error.status === 401) return 'A sessão do console expirou: entre de novo no console.';
  if (error instanceof RequestError && error.status === 403) return 'Seu papel no console não permite usar o portal.';
  if (error instanceof RequestError && error.code === 'payment_request_not_ours')
    return 'Esta solicitação não foi criada pelo console: o portal só aprova as que o console pediu (e aprovou, acima do limite).';
  return `O emulador recusou: ${messageOf(error)}`;
}

function showError(message: string) {
  errorLine.textContent = message;
  errorLine.hidden = !message;
}

/** Runs one action (one at a time), says what it did, and reloads the lists. */
async function act(work: () => Promise<unknown>, done: string) {
  if (busy) return;
  busy = true;
  showError('');
  try {
    await work();
    result.textContent = done;
  } catch (error) {
    showError(explain(error));
  } finally {
    busy = false;
  }
  await refresh();
}

const actions: Actions = {
  reviewReceiver: (id, name, decision) =>
    void act(() => portal.reviewReceiver(id, decision), `Recebedor ${name} ${decision === 'approve' ? 'aprovado' : 'recusado'}.`),
  decideRequest: (id, description, decision) =>
    void act(
      () => portal.decideRequest(id, decision),
      `Solicitação “${description}” ${decision === 'approve' ? 'aprovada' : 'rejeitada'}.`,
    ),
  decideCashOut: (c, operation) => {
    const done = { complete: 'concluída', error: 'marcada com erro', cancel: 'cancelada' }[operation];
    void act(
      () => portal.decideCashOut(c.transactionId!, operation),
      `Transferência de ${formatMoney(c.amount)} para ${c.recipient.name} ${done}.`,
    );
  },
};

/** What each list last drew, so an unchanged list is left alone (and the focus in it with it). */
const drawn = new Map<string, string>();

/**
 * Redraws the list in `#id` when its data changed; the button that had focus gets it back when it is still there
 * (the same label), else the list's heading does.
 */
function redraw(id: string, data: unknown, build: () => Node) {
  const key = JSON.stringify(data);
  if (drawn.get(id) === key) return;
  drawn.set(id, key);
  const container = byId(id);
  const focused = container.contains(document.activeElement) ? document.activeElement?.getAttribute('aria-label') : undefined;
  container.replaceChildren(build());
  if (focused === undefined) return;
  const again = [...container.querySelectorAll('button')].find((b) => b.getAttribute('aria-label') === focused);
  if (again) again.focus();
  else container.closest('section')?.querySelector<HTMLElement>('h2')?.focus();
}

/** Reads the emulator's overview and the product's cash-outs again, and redraws the lists that changed. */
async function refresh() {
  try {
    const [overview, cashOuts] = await Promise.all([portal.overview(), portal.cashOuts()]);
    redraw('receivers', overview.receivers, () => receiversTable(overview.receivers, actions));
    redraw('requests', overview.paymentRequests, () => requestsTable(overview.paymentRequests, actions));
    redraw('cashouts', cashOuts, () => cashOutsTable(cashOuts, actions));
  } catch (error) {
    showError(explain(error));
  }
}

/** The form's rules, as the emulator's: the field names with their message when wrong. */
function check(data: portal.NewReceiver): Partial<Record<keyof portal.NewReceiver, string>> {
  return {
    ...(data.name ? {} : { name: 'Informe o nome fantasia.' }),
    ...(isValidCnpj(data.cnpj) ? {} : { cnpj: 'Informe um CNPJ válido.' }),
    ...(/^\d{3}$/.test(data.bankCode) ? {} : { bankCode: 'Três dígitos, por exemplo 341.' }),
    ...(data.bankName ? {} : { bankName: 'Informe o nome do banco.' }),
    ...(/^\d{1,6}(-?[\dxX])?$/.test(data.agency) ? {} : { agency: 'Só dígitos, por exemplo 0001.' }),
    ...(/^\d{1,20}(-?[\dxX])?$/.test(data.account) ? {} : { account: 'Dígitos e o dígito verificador, por exemplo 12345-6.' }),
  };
}

async function register(event: SubmitEvent) {
  event.preventDefault();
  const form = event.target as HTMLFormElement;
  const fields = new FormData(form);
  const value = (name: string) => {
    const entry = fields.get(name);
    return typeof entry === 'string' ? entry.trim() : '';
  };
  const data: portal.NewReceiver = {
    name: value('name'),
    cnpj: value('cnpj').replace(/\D/g, ''),
    bankCode: value('bankCode'),
    bankName: value('bankName'),
    agency: value('agency'),
    account: value('account'),
  };
  const errors = check(data);
  for (const name of Object.keys(data) as (keyof portal.NewReceiver)[]) {
    const input = byId<HTMLInputElement>(`rf-${name}`);
    const hint = byId(`rf-${name}-hint`);
    input.setAttribute('aria-invalid', errors[name] ? 'true' : 'false');
    hint.textContent = errors[name] ?? hint.dataset.hint ?? '';
    hint.toggleAttribute('data-error', Boolean(errors[name]));
  }
  const first = Object.keys(data).find((name) => errors[name as keyof portal.NewReceiver]);
  if (first) return byId(`rf-${first}`).focus();
  await act(async () => {
    await portal.registerReceiver(data);
    form.reset();
  }, `Recebedor ${data.name} cadastrado com a conta ${data.account}: aguardando aprovação.`);
}

async function start() {
  const status = byId('portal-session');
  let signedIn: portal.PortalSession | undefined;
  try {
    signedIn = await portal.session();
  } catch (error) {
    status.textContent = `Não foi possível verificar a sessão do console: ${messageOf(error)}`;
    return;
  }
  if (!signedIn) {
    status.replaceChildren(
      'Entre no ',
      Object.assign(document.createElement('a'), { href: '/admin', textContent: 'console' }),
      ' como operador ou proprietário para usar o portal; depois recarregue esta página.',
    );
    return;
  }
  const { name, role } = signedIn.actor;
  if (role === 'viewer') {
    status.textContent = `Você entrou no console como ${name} (${ROLE_NAMES[role]}): o portal pede um operador ou um proprietário.`;
    return;
  }
  status.textContent = `Sessão do console: ${name} (${ROLE_NAMES[role]}).`;
  byId('portal-content').hidden = false;
  byId<HTMLFormElement>('receiver-form').addEventListener('submit', (event) => void register(event));
  await refresh();
  setInterval(() => {
    if (!busy && document.visibilityState === 'visible') void refresh();
  }, REFRESH_MS);
}

void start();

/**
 * The simulated bank page of OpenFinance: server-rendered HTML in Portuguese with no script at all, so it works
 * under the strictest CSP. The payer approves or refuses with two submit buttons of one form.
 */
import { maskCpf } from '../../core/cpf';
import { formatMoney } from '../../core/money';
import type { StoredTransaction } from './model';
import { escapeHtml as e } from './format';
import { MERCHANT, SANDBOX_BANK } from './defaults';

const layout = (title: string, body: string) => `<!doctype html>
<html lang="pt-BR">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${e(title)} · ${e(SANDBOX_BANK.bankName)}</title>
<link rel="stylesheet" href="../../style.css">
</head>
<body>
<main class="card">
<p class="bank">${e(SANDBOX_BANK.bankName)} <span>ambiente de testes</span></p>
${body}
</main>
</body>
</html>`;

export function approvalPage(tx: StoredTransaction): string {
  const t = tx.record.transaction;
  const description = t.orderDescription ? `<dt>Descrição</dt><dd>${e(t.orderDescription)}</dd>` : '';
  return layout(
    'Autorizar pagamento',
    `<h1>Autorizar pagamento</h1>
<p>${e(MERCHANT.name)} pede um pagamento via Open Finance a partir da sua conta.</p>
<dl>
<dt>Recebedor</dt><dd>${e(t.customerName ?? MERCHANT.name)}</dd>
<dt>Valor</dt><dd class="amount">${e(formatMoney(t.amount))}</dd>
<dt>CPF do pagador</dt><dd>${e(maskCpf(tx.record.payment.payer?.cpf ?? ''))}</dd>
${description}
</dl>
<form method="post">
<button type="submit" name="decision" value="approve">Aprovar pagamento</button>
<button type="submit" name="decision" value="fail" class="secondary">Recusar pagamento</button>
</form>
<p class="note" lang="en">Sandbox bank: approving completes the transaction, refusing ends it in Error; either way the
merchant's webhook is called and you return to the store.</p>`,
  );
}

const FINAL_TEXT: Record<string, string> = {
  Completed: 'Este pagamento já foi aprovado.',
  Error: 'Este pagamento foi recusado ou falhou.',
  Cancelled: 'Este pagamento foi cancelado.',
  Reversed: 'Este pagamento foi estornado.',
};

export function finishedPage(tx: StoredTransaction): string {
  const state = tx.record.transaction.state;
  const back = tx.internal.redirectUrl ? `<p><a class="button" href="${e(tx.internal.redirectUrl)}">Voltar para a loja</a></p>` : '';
  return layout(
    'Pagamento encerrado',
    `<h1>Pagamento encerrado</h1>
<p>${e(FINAL_TEXT[state] ?? 'Este pagamento não pode mais ser alterado.')}</p>
${back}`,
  );
}

export const notFoundPage = () =>
  layout('Pagamento não encontrado', '<h1>Pagamento não encontrado</h1><p>O endereço de pagamento é inválido ou expirou.</p>');

export const CHECKOUT_CSS = `*{box-sizing:border-box}
body{margin:0;min-height:100vh;display:grid;place-items:center;background:#eef2f6;color:#1b2430;
font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
.card{width:min(28rem,100% - 2rem);background:#fff;border-radius:12px;padding:1.5rem 1.75rem;box-shadow:0 4px 24px #0002}
.bank{margin:0 0 .5rem;font-weight:700;color:#0b4f8a}.bank span{font-weight:400;color:#5b6675;font-size:.85rem;margin-left:.5rem}
h1{font-size:1.35rem;margin:.25rem 0 1rem}
dl{display:grid;grid-template-columns:auto 1fr;gap:.4rem 1rem;margin:1rem 0 1.5rem}dt{color:#5b6675}dd{margin:0;font-weight:600}
.amount{font-size:1.25rem}
form{display:flex;gap:.75rem;flex-wrap:wrap}
button,.button{flex:1;font:inherit;font-weight:600;padding:.75rem 1rem;border-radius:8px;border:2px solid #0b4f8a;
background:#0b4f8a;color:#fff;cursor:pointer;text-align:center;text-decoration:none;display:inline-block}
button.secondary{background:#fff;color:#8a1b1b;border-color:#8a1b1b}
button:focus-visible,.button:focus-visible{outline:3px solid #f5a623;outline-offset:2px}
.note{margin-top:1.25rem;font-size:.8rem;color:#5b6675}`;

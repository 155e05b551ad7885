// Helpers shared by the demo pages: money display and JSON calls to the demo server.

const brl = new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' });

/** "39.90" → 3990. Prices travel as decimal strings; integer cents keep the display total exact. */
export function toCents(decimal) {
  const [units = '0', fraction = ''] = String(decimal).split('.');
  return Number(units) * 100 + Number(fraction.padEnd(2, '0').slice(0, 2));
}

export function formatCents(cents) {
  return brl.format(cents / 100);
}

export function formatAmount(decimal) {
  return formatCents(toCents(decimal));
}

/** Fetches JSON; a non-2xx answer throws with the server's own message from the error envelope when there is one. */
export async function requestJson(url, init = {}) {
  const response = await fetch(url, {
    ...init,
    headers: { accept: 'application/json', ...(init.body ? { 'content-type': 'application/json' } : {}), ...init.headers },
  });
  const body = await response.json().catch(() => undefined);
  if (!response.ok) {
    const error = new Error(body?.error?.message ?? body?.message ?? `HTTP ${response.status}`);
    error.status = response.status;
    throw error;
  }
  return body;
}

/** Builds an element with attributes and children; strings become text nodes, so data is never parsed as HTML. */
export function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === false || value === undefined || value === null) continue;
    if (name.startsWith('on') && typeof value === 'function') element.addEventListener(name.slice(2), value);
    else element.setAttribute(name, value === true ? '' : String(value));
  }
  element.append(...children.flat().filter((child) => child !== undefined && child !== null && child !== false));
  return element;
}

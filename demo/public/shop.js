// The storefront: product grid, a cart kept in localStorage, and "Finalizar compra", which places the order on the
// server (where it is priced) and moves to the checkout page.
import { formatAmount, formatCents, h, requestJson, toCents } from './common.js';

const CART_KEY = 'armazem-cerrado:cart';
const MAX_QUANTITY = 20; // the demo API refuses more per line

const $ = (id) => document.getElementById(id);
let products = [];
/** sku → quantity */
let cart = loadCart();

function loadCart() {
  try {
    const saved = JSON.parse(localStorage.getItem(CART_KEY) ?? '{}');
    return saved && typeof saved === 'object' ? saved : {};
  } catch {
    return {};
  }
}

function saveCart() {
  try {
    localStorage.setItem(CART_KEY, JSON.stringify(cart));
  } catch {
    // Private modes may refuse storage: the cart then lives only as long as the page.
  }
}

let cartHasLines = false;
let cartInView = false;

/** The bottom bar of narrow screens leads to the cart; once the cart itself is on screen it would only cover it. */
function updateCartJump() {
  $('cart-jump').hidden = !cartHasLines || cartInView;
  document.body.classList.toggle('has-cart-jump', cartHasLines);
}

function announce(text) {
  $('cart-announcer').textContent = text;
}

function setQuantity(sku, quantity) {
  const product = products.find((p) => p.sku === sku);
  if (!product) return;
  const next = Math.max(0, Math.min(MAX_QUANTITY, quantity));
  if (next === 0) delete cart[sku];
  else cart[sku] = next;
  saveCart();
  renderCart();
  announce(next === 0 ? `${product.name} removido do carrinho.` : `${product.name}: ${next} no carrinho.`);
}

function renderProducts() {
  const grid = $('product-grid');
  grid.replaceChildren(
    ...products.map((product) =>
      h(
        'li',
        { class: 'product' },
        h('div', { class: 'product-art', 'aria-hidden': 'true' }, product.emoji),
        h('h2', { class: 'product-name', id: `product-${product.sku}` }, product.name),
        h('p', { class: 'product-description' }, product.description),
        h(
          'div',
          { class: 'product-buy' },
          h('p', { class: 'product-price' }, formatAmount(product.price)),
          h(
            'button',
            {
              type: 'button',
              class: 'button button-primary',
              'aria-describedby': `product-${product.sku}`,
              onclick: () => setQuantity(product.sku, (cart[product.sku] ?? 0) + 1),
            },
            'Adicionar',
          ),
        ),
      ),
    ),
  );
}

function cartLine(product, quantity) {
  const name = product.name;
  return h(
    'li',
    { class: 'cart-line', 'data-sku': product.sku },
    h('span', { class: 'cart-line-art', 'aria-hidden': 'true' }, product.emoji),
    h('span', { class: 'cart-line-name' }, name),
    h(
      'span',
      { class: 'stepper', role: 'group', 'aria-label': `Quantidade de ${name}` },
      h('button', { type: 'button', class: 'stepper-button', 'aria-label': `Diminuir ${name}`, onclick: () => setQuantity(product.sku, quantity - 1) }, '−'),
      h('output', { class: 'stepper-value', 'aria-live': 'off' }, String(quantity)),
      h('button', {
        type: 'button',
        class: 'stepper-button',
        'aria-label': `Aumentar ${name}`,
        disabled: quantity >= MAX_QUANTITY,
        onclick: () => setQuantity(product.sku, quantity + 1),
      }, '+'),
    ),
    h('span', { class: 'cart-line-total' }, formatCents(toCents(product.price) * quantity)),
  );
}

function renderCart() {
  const lines = products.filter((p) => cart[p.sku] > 0).map((p) => [p, cart[p.sku]]);
  const count = lines.reduce((sum, [, quantity]) => sum + quantity, 0);
  const total = lines.reduce((sum, [p, quantity]) => sum + toCents(p.price) * quantity, 0);
  $('cart-lines').replaceChildren(...lines.map(([p, quantity]) => cartLine(p, quantity)));
  $('cart-count').textContent = count ? `(${count} ${count === 1 ? 'item' : 'itens'})` : '';
  $('cart-empty').hidden = lines.length > 0;
  $('cart-total-row').hidden = lines.length === 0;
  $('cart-note').hidden = lines.length === 0;
  $('cart-total').textContent = formatCents(total);
  $('checkout-button').disabled = lines.length === 0;
  cartHasLines = lines.length > 0;
  updateCartJump();
  $('cart-jump-count').textContent = `Ver carrinho (${count})`;
  $('cart-jump-total').textContent = formatCents(total);
}

async function checkout() {
  const button = $('checkout-button');
  const items = Object.entries(cart).map(([sku, quantity]) => ({ sku, quantity }));
  if (!items.length) return;
  button.disabled = true;
  button.textContent = 'Fechando o pedido…';
  $('checkout-error').textContent = '';
  try {
    const order = await requestJson('/demo/api/orders', { method: 'POST', body: JSON.stringify({ items }) });
    cart = {};
    saveCart();
    location.assign(`checkout.html?order=${encodeURIComponent(order.orderId)}`);
  } catch (error) {
    $('checkout-error').textContent = `Não foi possível fechar o pedido: ${error.message}`;
    button.disabled = false;
    button.textContent = 'Finalizar compra';
  }
}

async function main() {
  $('checkout-button').addEventListener('click', checkout);
  new IntersectionObserver(([entry]) => {
    cartInView = entry.isIntersecting;
    updateCartJump();
  }).observe($('carrinho'));
  const status = $('products-status');
  try {
    ({ items: products } = await requestJson('/demo/api/products'));
  } catch (error) {
    status.textContent = `Não foi possível carregar os produtos (${error.message}). Recarregue a página.`;
    status.classList.add('notice-error');
    return;
  }
  // Forget what the catalogue no longer sells.
  cart = Object.fromEntries(Object.entries(cart).filter(([sku, q]) => products.some((p) => p.sku === sku) && q > 0));
  status.textContent = '';
  status.hidden = true;
  renderProducts();
  renderCart();
}

main();

/**
 * The storefront (`index.html`): product grid, a cart kept in localStorage, and "Finalizar compra", which places the
 * order on the server (where it is priced) and moves to the checkout page. The cart's totals are only a preview, in
 * integer cents; the server prices the order again.
 */
import { formatMoney, formatMoneyCents, requireCents } from '../../core/money';
import { byId, checkoutPageUrl, h, messageOf, requestJson, type ShopProduct } from './common';

const CART_KEY = 'armazem-cerrado:cart';
const MAX_QUANTITY = 20; // the demo API refuses more per line

/** sku → quantity */
type Cart = Record<string, number>;

let products: ShopProduct[] = [];
let cart: Cart = loadCart();

const isQuantity = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) > 0;

function loadCart(): Cart {
  try {
    const saved: unknown = JSON.parse(localStorage.getItem(CART_KEY) ?? '{}');
    if (!saved || typeof saved !== 'object') return {};
    return Object.fromEntries(Object.entries(saved).filter((entry): entry is [string, number] => isQuantity(entry[1])));
  } catch {
    return {};
  }
}

function saveCart(): void {
  try {
    localStorage.setItem(CART_KEY, JSON.stringify(cart));
  } catch {
    // Private modes may refuse storage: the cart then lives only as long as the page.
  }
}

let cartHasLines = false;
let cartInView = false;

/** The bottom bar of narrow screens leads to the cart; once the cart itself is on screen it would only cover it. */
function updateCartJump(): void {
  byId('cart-jump').hidden = !cartHasLines || cartInView;
  document.body.classList.toggle('has-cart-jump', cartHasLines);
}

function announce(text: string): void {
  byId('cart-announcer').textContent = text;
}

function setQuantity(sku: string, quantity: number): void {
  const product = products.find((p) => p.sku === sku);
  if (!product) return;
  const next = Math.max(0, Math.min(MAX_QUANTITY, quantity));
  if (next === 0) delete cart[sku];
  else cart[sku] = next;
  saveCart();
  renderCart();
  announce(next === 0 ? `${product.name} removido do carrinho.` : `${product.name}: ${next} no carrinho.`);
}

/** The product's drawing; decorative (empty alt), since its name is written beside it. */
function productImage(product: ShopProduct, size: number): HTMLImageElement {
  return h('img', { src: product.image, alt: '', width: size, height: size, decoding: 'async' });
}

function renderProducts(): void {
  byId('product-grid').replaceChildren(
    ...products.map((product) =>
      h(
        'li',
        { class: 'product' },
        h('div', { class: 'product-art' }, productImage(product, 112)),
        h('h2', { class: 'product-name', id: `product-${product.sku}` }, product.name),
        h('p', { class: 'product-description' }, product.description),
        h(
          'div',
          { class: 'product-buy' },
          h('p', { class: 'product-price' }, formatMoney(product.price)),
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

/** Price × quantity, exactly, in integer cents (formatMoneyCents refuses a total past a safe integer). */
const lineCents = (product: ShopProduct, quantity: number): number => requireCents(product.price) * quantity;

function cartLine(product: ShopProduct, quantity: number): HTMLLIElement {
  const name = product.name;
  return h(
    'li',
    { class: 'cart-line', 'data-sku': product.sku },
    h('span', { class: 'cart-line-art' }, productImage(product, 32)),
    h('span', { class: 'cart-line-name' }, name),
    h(
      'span',
      { class: 'stepper', role: 'group', 'aria-label': `Quantidade de ${name}` },
      h(
        'button',
        {
          type: 'button',
          class: 'stepper-button',
          'aria-label': `Diminuir ${name}`,
          onclick: () => setQuantity(product.sku, quantity - 1),
        },
        '−',
      ),
      h('output', { class: 'stepper-value', 'aria-live': 'off' }, String(quantity)),
      h(
        'button',
        {
          type: 'button',
          class: 'stepper-button',
          'aria-label': `Aumentar ${name}`,
          disabled: quantity >= MAX_QUANTITY,
          onclick: () => setQuantity(product.sku, quantity + 1),
        },
        '+',
      ),
    ),
    h('span', { class: 'cart-line-total' }, formatMoneyCents(lineCents(product, quantity))),
  );
}

function renderCart(): void {
  const lines = products.flatMap((p) => {
    const quantity = cart[p.sku] ?? 0;
    return quantity > 0 ? [[p, quantity] as const] : [];
  });
  const count = lines.reduce((sum, [, quantity]) => sum + quantity, 0);
  const total = lines.reduce((sum, [p, quantity]) => sum + lineCents(p, quantity), 0);
  byId('cart-lines').replaceChildren(...lines.map(([p, quantity]) => cartLine(p, quantity)));
  byId('cart-count').textContent = count ? `(${count} ${count === 1 ? 'item' : 'itens'})` : '';
  byId('cart-empty').hidden = lines.length > 0;
  byId('cart-total-row').hidden = lines.length === 0;
  byId('cart-note').hidden = lines.length === 0;
  byId('cart-total').textContent = formatMoneyCents(total);
  byId<HTMLButtonElement>('checkout-button').disabled = lines.length === 0;
  cartHasLines = lines.length > 0;
  updateCartJump();
  byId('cart-jump-count').textContent = `Ver carrinho (${count})`;
  byId('cart-jump-total').textContent = formatMoneyCents(total);
}

async function checkout(): Promise<void> {
  const button = byId<HTMLButtonElement>('checkout-button');
  const items = Object.entries(cart).map(([sku, quantity]) => ({ sku, quantity }));
  if (!items.length) return;
  button.disabled = true;
  button.textContent = 'Fechando o pedido…';
  byId('checkout-error').textContent = '';
  try {
    const order = await requestJson<{ orderId: string; orderToken: string }>('/demo/api/orders', {
      method: 'POST',
      body: JSON.stringify({ items }),
    });
    cart = {};
    saveCart();
    // Only this answer carries the order's token; the checkout page takes it from the fragment.
    location.assign(checkoutPageUrl(order.orderId, order.orderToken));
  } catch (error) {
    byId('checkout-error').textContent = `Não foi possível fechar o pedido: ${messageOf(error)}`;
    button.disabled = false;
    button.textContent = 'Finalizar compra';
  }
}

async function main(): Promise<void> {
  byId('checkout-button').addEventListener('click', () => void checkout());
  new IntersectionObserver(([entry]) => {
    cartInView = entry?.isIntersecting ?? false;
    updateCartJump();
  }).observe(byId('carrinho'));
  const status = byId('products-status');
  try {
    ({ items: products } = await requestJson<{ items: ShopProduct[] }>('/demo/api/products'));
  } catch (error) {
    status.textContent = `Não foi possível carregar os produtos (${messageOf(error)}). Recarregue a página.`;
    status.classList.add('notice-error');
    return;
  }
  // Forget what the catalogue no longer sells.
  cart = Object.fromEntries(Object.entries(cart).filter(([sku]) => products.some((p) => p.sku === sku)));
  status.textContent = '';
  status.hidden = true;
  renderProducts();
  renderCart();
}

void main();

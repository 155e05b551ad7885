/** The demo shop's products. Prices are integer cents and live only on the server. */
export interface Product {
  sku: string;
  name: string;
  description: string;
  priceCents: number;
  /**
   * The product's picture: a small SVG drawing served from demo/public/products (no photo files, no emoji font), so
   * every browser shows the same image.
   */
  image: string;
}

export const PRODUCTS: readonly Product[] = [
  {
    sku: 'cafe-especial',
    name: 'Café especial 250 g',
    description: 'Grãos do Cerrado Mineiro, torra média.',
    priceCents: 3990,
    image: '/products/cafe-especial.svg',
  },
  {
    sku: 'caneca',
    name: 'Caneca esmaltada',
    description: 'Azul, 350 ml, para o café da manhã.',
    priceCents: 5490,
    image: '/products/caneca.svg',
  },
  {
    sku: 'pao-de-queijo',
    name: 'Pão de queijo congelado 1 kg',
    description: 'Receita de família, assa em 25 minutos.',
    priceCents: 2750,
    image: '/products/pao-de-queijo.svg',
  },
  { sku: 'rapadura', name: 'Rapadura artesanal', description: 'Tablete de 500 g.', priceCents: 1225, image: '/products/rapadura.svg' },
];

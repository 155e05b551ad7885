/** The demo shop's products. Prices are integer cents and live only on the server. */
export interface Product {
  sku: string;
  name: string;
  description: string;
  priceCents: number;
  /** An emoji stands in for a product photo, so the demo needs no image files. */
  emoji: string;
}

export const PRODUCTS: readonly Product[] = [
  {
    sku: 'cafe-especial',
    name: 'Café especial 250 g',
    description: 'Grãos do Cerrado Mineiro, torra média.',
    priceCents: 3990,
    emoji: '☕',
  },
  { sku: 'caneca', name: 'Caneca esmaltada', description: 'Azul, 350 ml, para o café da manhã.', priceCents: 5490, emoji: '🫖' },
  {
    sku: 'pao-de-queijo',
    name: 'Pão de queijo congelado 1 kg',
    description: 'Receita de família, assa em 25 minutos.',
    priceCents: 2750,
    emoji: '🧀',
  },
  { sku: 'rapadura', name: 'Rapadura artesanal', description: 'Tablete de 500 g.', priceCents: 1225, emoji: '🍬' },
];

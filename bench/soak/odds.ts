/** The soak's dice: every fault, pause and shopper's choice is drawn with these. */
export const chance = (p: number) => Math.random() < p;
export const between = (min: number, max: number) => min + Math.random() * (max - min);

/** Charges of a transaction: the plan's fixed part plus its percentage of the amount, exact to 6 decimals. */
import { formatDecimal, MICRO_SCALE as SCALE, microsOf, mulDiv, parseDecimal } from '../../core/money';
import type { BillingPlan } from './defaults';

export interface Charges {
  charges: string;
  chargesObject: { costValue: string; rateValue: string; rate: string };
}

/** Charges of an amount of integer cents. */
export type ChargesOf = (amountCents: number) => Charges;

/** Checks the plan once, at start-up, and returns the calculator. */
export function billingCalculator(plan: BillingPlan): ChargesOf {
  const fixed = parseDecimal(plan.fixed, SCALE);
  const rate = parseDecimal(plan.ratePercent, SCALE);
  if (fixed === undefined || rate === undefined)
    throw new Error(`Invalid billing plan ${JSON.stringify(plan)}: use decimal strings with at most 6 decimals`);
  return (amountCents) => {
    // rate is in millionths of a percent, so the divisor is 100 (percent) × 10^6 (its scale).
    const rateValue = mulDiv(microsOf(amountCents), rate, 100n * 10n ** BigInt(SCALE));
    return {
      charges: formatDecimal(fixed + rateValue, SCALE),
      chargesObject: {
        costValue: formatDecimal(fixed, SCALE),
        rateValue: formatDecimal(rateValue, SCALE),
        rate: formatDecimal(rate, SCALE),
      },
    };
  };
}

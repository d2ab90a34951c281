/**
 * A quote shown in another currency than the product's (docs/payments.md#display-currency): the organization's
 * own exchange rate (settings.exchange_rates, read through staykit_internal.exchange_rate) converts the total and
 * the deposit; the booking is still made and paid in the product's currency, and /book stores the rate used
 * (bookings.display_currency, bookings.exchange_rate).
 */
import type { ApiError } from '../errors/api-error.js';
import type { Queryable } from '../db/types.js';
import { minorUnitDigits } from './format.js';

export interface DisplayCurrency {
  currency: string;
  rate: number;
}

/**
 * The display currency asked for, with its rate; null when none was asked or it is the product's. Without a rate,
 * throws what `missing` makes of the asked currency (the booking flow's 422 SK618).
 */
export async function displayCurrencyFor(
  tx: Queryable, productCurrency: string, asked: string | null, missing: (asked: string) => ApiError,
): Promise<DisplayCurrency | null> {
  if (asked === null || asked === productCurrency) return null;
  const { rows } = await tx.query<{ rate: string | null }>('SELECT staykit_internal.exchange_rate($1, $2)::text AS rate', [productCurrency, asked]);
  const rate = rows[0]?.rate === null || rows[0]?.rate === undefined ? NaN : Number(rows[0].rate);
  if (!(rate > 0) || !Number.isFinite(rate)) throw missing(asked);
  return { currency: asked, rate };
}

/** `minor` units of `from` in minor units of `to` at `rate`, rounded to the nearest unit. */
export function convertMinor(minor: number, from: string, to: string, rate: number): number {
  return Math.round((minor / 10 ** minorUnitDigits(from)) * rate * 10 ** minorUnitDigits(to));
}

interface Convertible {
  currency: string;
  total: number;
  deposit: number;
}

/** The quote with its display currency, rate and display amounts (the same quote when there is none). */
export function withDisplayAmounts<Q extends Convertible>(quote: Q, display: DisplayCurrency | null): Q & { display_total: number; display_deposit: number } {
  if (!display) return { ...quote, display_total: quote.total, display_deposit: quote.deposit };
  return {
    ...quote,
    display_currency: display.currency,
    exchange_rate: display.rate,
    display_total: convertMinor(quote.total, quote.currency, display.currency, display.rate),
    display_deposit: convertMinor(quote.deposit, quote.currency, display.currency, display.rate),
  };
}

/** Amounts as people type them and as the API stores them (minor units), for a currency's number of decimals. */
export function currencyDigits(currency: string): number {
  return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
}

/** "120.50" EUR → 12050. */
export const toMinor = (amount: number, currency: string): number => Math.round(amount * 10 ** currencyDigits(currency));

/** 12050 EUR → 120.5, what the amount field starts with. */
export const fromMinor = (minor: number, currency: string): number => minor / 10 ** currencyDigits(currency);

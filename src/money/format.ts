/**
 * Amounts are integers in minor units of their currency (docs/payments.md). Here they become text for people:
 * `EUR 1,234.50`, with as many decimals as the currency has (JPY none).
 */

/** Decimals of a currency's minor unit (ISO 4217, as Intl knows it; 2 for a code Intl does not know). */
export function minorUnitDigits(currency: string): number {
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
}

export function formatAmount(minor: number, currency: string): string {
  const digits = minorUnitDigits(currency);
  const major = minor / 10 ** digits;
  const text = new Intl.NumberFormat('en', { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(major);
  return `${currency} ${text}`;
}

/**
 * The sums an invoice states besides its lines (docs/payments.md#what-an-invoice-shows): the total without tax, the
 * tax per rate with the amount it is charged on, and the total with tax — from the lines and their taxes exactly as
 * stored (`line_item_taxes`), nothing computed again. Pure.
 *
 * An exclusive tax is stored twice: on each line it applies to, and as a line of its own (`item_type: tax`) that
 * carries it into the total. The document shows it once, in the breakdown — unless the tax lines do not add up to the
 * taxes on the lines (written by hand), then they stay among the lines, as written.
 */
import type { InvoiceLine } from './invoice-queries.js';

export interface TaxRate {
  name: string;
  percentage: number;
  /** What the rate is charged on: the lines' amounts without their included taxes. */
  base: number;
  amount: number;
}

export interface InvoiceTotals {
  /** The lines to list (fees; tax lines only when they are not explained by the breakdown). */
  lines: InvoiceLine[];
  deposits: InvoiceLine[];
  taxes: TaxRate[];
  /** Total without tax (`net`), the taxes, and with tax (`gross`, the invoice's total). */
  net: number;
  tax: number;
  gross: number;
}

export function invoiceTotals(all: readonly InvoiceLine[]): InvoiceTotals {
  const fees = all.filter((line) => line.fee_type === 'fee');
  const deposits = all.filter((line) => line.fee_type === 'deposit');
  const taxLines = fees.filter((line) => line.item_type === 'tax');
  const charged = fees.filter((line) => line.item_type !== 'tax');
  const rates = new Map<string, TaxRate>();
  let exclusive = 0;
  for (const line of charged) {
    const included = line.taxes.filter((tax) => tax.inclusive).reduce((sum, tax) => sum + tax.amount, 0);
    for (const tax of line.taxes) {
      const key = `${tax.name}\u0000${tax.percentage}`;
      const rate = rates.get(key) ?? { name: tax.name, percentage: tax.percentage, base: 0, amount: 0 };
      rate.base += line.amount - included;
      rate.amount += tax.amount;
      rates.set(key, rate);
      if (!tax.inclusive) exclusive += tax.amount;
    }
  }
  const explained = taxLines.reduce((sum, line) => sum + line.amount, 0) === exclusive;
  const lines = explained ? charged : fees;
  const taxes = [...rates.values()];
  const gross = fees.reduce((sum, line) => sum + line.amount, 0);
  const tax = explained ? taxes.reduce((sum, rate) => sum + rate.amount, 0) : 0;
  return { lines, deposits, taxes: explained ? taxes : [], net: gross - tax, tax, gross };
}

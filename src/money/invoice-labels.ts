/** The invoice document's words in its language (en, nl, de; others read English). */
import { translator, type GuestLanguage, type Translate } from '../common/translate.js';

const en = {
  invoice: 'Invoice {number}', creditInvoice: 'Credit invoice {number}', draft: '{kind} (draft, not issued)', void: '{title} (void)',
  issued: 'Invoice date', due: 'Due date', supply: 'Date of supply', stay: '{start} – {end}, {unit}', booking: 'Booking',
  corrects: 'Corrects invoice {number}', billedTo: 'Billed to', vatId: 'VAT number: {id}', registration: 'Registration number: {id}',
  description: 'Description', quantity: 'Qty', rate: 'Tax', amount: 'Amount', net: 'Total excluding tax',
  taxRow: '{name} {percentage}% of {base}', gross: 'Total including tax', total: 'Total',
  deposit: '{name} (refundable deposit, not included)', paidOn: 'Paid on {date}', howToPay: 'How to pay',
  payBy: 'Please pay {amount} by {date}, quoting {number}.',
};
export type InvoiceLabels = typeof en;

const TABLES: Record<GuestLanguage, InvoiceLabels> = {
  en,
  nl: {
    invoice: 'Factuur {number}', creditInvoice: 'Creditfactuur {number}', draft: '{kind} (concept, niet verstuurd)', void: '{title} (vervallen)',
    issued: 'Factuurdatum', due: 'Vervaldatum', supply: 'Leveringsdatum', stay: '{start} – {end}, {unit}', booking: 'Boeking',
    corrects: 'Corrigeert factuur {number}', billedTo: 'Factuur aan', vatId: 'Btw-nummer: {id}', registration: 'KvK-nummer: {id}',
    description: 'Omschrijving', quantity: 'Aantal', rate: 'Btw', amount: 'Bedrag', net: 'Totaal exclusief btw',
    taxRow: '{name} {percentage}% over {base}', gross: 'Totaal inclusief btw', total: 'Totaal',
    deposit: '{name} (borg, wordt terugbetaald, niet inbegrepen)', paidOn: 'Betaald op {date}', howToPay: 'Betalen',
    payBy: 'Graag {amount} betalen vóór {date} onder vermelding van {number}.',
  },
  de: {
    invoice: 'Rechnung {number}', creditInvoice: 'Gutschrift {number}', draft: '{kind} (Entwurf, nicht ausgestellt)', void: '{title} (storniert)',
    issued: 'Rechnungsdatum', due: 'Fällig am', supply: 'Leistungszeitraum', stay: '{start} – {end}, {unit}', booking: 'Buchung',
    corrects: 'Korrigiert Rechnung {number}', billedTo: 'Rechnung an', vatId: 'USt-IdNr.: {id}', registration: 'Handelsregister: {id}',
    description: 'Beschreibung', quantity: 'Menge', rate: 'USt.', amount: 'Betrag', net: 'Summe netto',
    taxRow: '{name} {percentage}% auf {base}', gross: 'Summe brutto', total: 'Summe',
    deposit: '{name} (Kaution, wird erstattet, nicht enthalten)', paidOn: 'Bezahlt am {date}', howToPay: 'Zahlung',
    payBy: 'Bitte zahlen Sie {amount} bis {date} unter Angabe von {number}.',
  },
};

export function invoiceLabels(language: string): Translate<InvoiceLabels> {
  return translator(TABLES, language);
}

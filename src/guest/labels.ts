/**
 * The guest page's own words in the booking's language: the languages the booking widget speaks (en, nl, de),
 * chosen by the primary subtag of the booking's language (`nl-BE` → Dutch); anything else is shown in English.
 */

const en = {
  booking: 'Booking {reference}',
  CONFIRMED: 'Confirmed', TENTATIVE: 'Awaiting confirmation', CANCELLED: 'Cancelled',
  unit: 'Unit', checkIn: 'Check-in', checkout: 'Checkout', firstDay: 'First day', lastDay: 'Last day',
  address: 'Address', latestArrival: 'Latest arrival', guests: 'Guests', addToCalendar: 'Add to calendar (.ics)',
  price: 'Price', priceCaption: 'Price lines of the booking', item: 'Item', quantity: 'Quantity', amount: 'Amount',
  total: 'Total', deposit: '{name} (refundable deposit)',
  payments: 'Payments', paidSoFar: 'Paid so far:', paidOn: 'paid {date}', dueOn: 'due {date}',
  pending: 'to pay', paid: 'paid', failed: 'failed', cancelled: 'cancelled', expired: 'expired',
  invoices: 'Invoices', invoice: 'Invoice {number} (PDF)', issued: 'issued', void: 'void',
  refunds: 'Refunds', refundPending: '{amount} is being refunded', refundDone: '{amount} refunded on {date}',
  cancellation: 'Cancellation', cancellationSent: 'Your cancellation request was sent to your host. They will get back to you.',
  cancellationReason: 'Why do you want to cancel? (optional)', requestCancellation: 'Request cancellation',
};
export type GuestLabels = typeof en;

const nl: GuestLabels = {
  booking: 'Boeking {reference}',
  CONFIRMED: 'Bevestigd', TENTATIVE: 'Wacht op bevestiging', CANCELLED: 'Geannuleerd',
  unit: 'Accommodatie', checkIn: 'Aankomst', checkout: 'Vertrek', firstDay: 'Eerste dag', lastDay: 'Laatste dag',
  address: 'Adres', latestArrival: 'Uiterlijke aankomsttijd', guests: 'Gasten', addToCalendar: 'Toevoegen aan agenda (.ics)',
  price: 'Prijs', priceCaption: 'Prijsregels van de boeking', item: 'Omschrijving', quantity: 'Aantal', amount: 'Bedrag',
  total: 'Totaal', deposit: '{name} (borg, wordt terugbetaald)',
  payments: 'Betalingen', paidSoFar: 'Tot nu toe betaald:', paidOn: 'betaald op {date}', dueOn: 'te betalen vóór {date}',
  pending: 'te betalen', paid: 'betaald', failed: 'mislukt', cancelled: 'geannuleerd', expired: 'verlopen',
  invoices: 'Facturen', invoice: 'Factuur {number} (PDF)', issued: 'verstuurd', void: 'vervallen',
  refunds: 'Terugbetalingen', refundPending: '{amount} wordt terugbetaald', refundDone: '{amount} terugbetaald op {date}',
  cancellation: 'Annuleren', cancellationSent: 'Je annuleringsverzoek is naar je verhuurder gestuurd. Je hoort van hen.',
  cancellationReason: 'Waarom wil je annuleren? (optioneel)', requestCancellation: 'Annulering aanvragen',
};

const de: GuestLabels = {
  booking: 'Buchung {reference}',
  CONFIRMED: 'Bestätigt', TENTATIVE: 'Wartet auf Bestätigung', CANCELLED: 'Storniert',
  unit: 'Unterkunft', checkIn: 'Anreise', checkout: 'Abreise', firstDay: 'Erster Tag', lastDay: 'Letzter Tag',
  address: 'Adresse', latestArrival: 'Späteste Ankunft', guests: 'Gäste', addToCalendar: 'Zum Kalender hinzufügen (.ics)',
  price: 'Preis', priceCaption: 'Preispositionen der Buchung', item: 'Position', quantity: 'Anzahl', amount: 'Betrag',
  total: 'Gesamt', deposit: '{name} (Kaution, wird erstattet)',
  payments: 'Zahlungen', paidSoFar: 'Bisher bezahlt:', paidOn: 'bezahlt am {date}', dueOn: 'fällig am {date}',
  pending: 'offen', paid: 'bezahlt', failed: 'fehlgeschlagen', cancelled: 'storniert', expired: 'abgelaufen',
  invoices: 'Rechnungen', invoice: 'Rechnung {number} (PDF)', issued: 'ausgestellt', void: 'storniert',
  refunds: 'Erstattungen', refundPending: '{amount} wird erstattet', refundDone: '{amount} erstattet am {date}',
  cancellation: 'Stornierung', cancellationSent: 'Ihre Stornierungsanfrage wurde an Ihren Gastgeber gesendet. Er meldet sich bei Ihnen.',
  cancellationReason: 'Warum möchten Sie stornieren? (optional)', requestCancellation: 'Stornierung anfragen',
};

const LABELS: Record<string, GuestLabels> = { en, nl, de };

export type GuestTranslate = (key: keyof GuestLabels, values?: Record<string, string | number>) => string;

/** The labels of the booking's language; `status` words a booking, payment or invoice status (an unknown one as it is). */
export function guestTranslator(language: string): { t: GuestTranslate; status: (value: string) => string } {
  const primary = language.toLowerCase().split('-')[0]!;
  const labels = Object.hasOwn(LABELS, primary) ? LABELS[primary]! : en;
  const t: GuestTranslate = (key, values = {}) => labels[key].replace(/\{(\w+)\}/g, (_, name: string) => String(values[name] ?? ''));
  const status = (value: string) => (Object.hasOwn(labels, value) ? labels[value as keyof GuestLabels] : value);
  return { t, status };
}

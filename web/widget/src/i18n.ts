/**
 * The widget's own words in the languages it speaks; everything the organization wrote (unit names, services) comes
 * as MultiLanguageStrings and is shown in the same language when it has it, else its default.
 */
import { localizedText } from '../../../src/common/languages.js';
import type { MultiLanguageString } from './types.js';

const en = {
  unit: 'Unit', previousMonth: 'Previous month', nextMonth: 'Next month', calendar: 'Choose your dates',
  available: 'available', unavailable: 'not available', checkInDay: 'check-in possible', checkoutDay: 'checkout possible',
  from: 'from', checkIn: 'Check-in', checkout: 'Checkout', chooseCheckIn: 'Choose a check-in day.',
  chooseCheckout: 'Check-in {date}. Now choose a checkout day.', datesChosen: '{start} to {end} selected.',
  guests: 'Guests', extras: 'Extras', none: 'None', coupon: 'Coupon code', quote: 'Show price', price: 'Price',
  total: 'Total', deposit: 'Refundable deposit', details: 'Your details', firstName: 'First name', lastName: 'Last name',
  email: 'E-mail', phone: 'Phone', book: 'Book now', request: 'Send booking request', loading: 'Loading…',
  confirmed: 'Thank you! Your booking {reference} is made.', requested: 'Thank you! Your request {reference} was sent.',
  pay: 'Pay now', guestPage: 'View your booking', quantity: 'Quantity', between: '{min} to {max}', atLeast: 'at least {min}',
  required: 'required', selectDates: 'Choose a check-in and a checkout day first.',
  chooseCheckoutMinimum: 'Check-in {date}. Now choose a checkout day: a stay is at least {n} nights.',
  minimumStay: 'A stay here is at least {n} nights: choose a checkout day from {date}.',
  chooseLastDayMinimum: 'First day {date}. Now choose the last day: a stay is at least {n} days.',
  minimumDays: 'A stay here is at least {n} days: choose a last day from {date}.',
  contactRequired: 'Please fill in your name and e-mail address.', datesTaken: 'These dates are no longer available. Please choose others.',
  networkError: 'The booking service cannot be reached. Please try again.',
  formInactive: 'This booking form is no longer active — please contact the host.', paymentSchedule: 'Payments',
  payNow: '{amount} now', payOn: '{amount} by {date}',
  cancellationPolicy: 'Cancellation policy', bookingTerms: 'Booking terms',
  acceptTerms: 'I accept the booking terms and the cancellation policy',
  acceptTermsRequired: 'Please accept the booking terms and the cancellation policy to book.',
  photosOf: 'Photos of {unit}', photosHint: 'Swipe or use the arrow keys for more photos', photoOf: 'Photo {n} of {total}',
  previousPhoto: 'Previous photo', nextPhoto: 'Next photo', keyFacts: 'Key facts', upToGuests: 'Up to {n} guests',
  oneGuest: '1 guest', checkInUntil: 'Check-in until {time}',
  previewNote: 'Preview: on your website guests get the price here and book.',
};
type Labels = typeof en;

const nl: Labels = {
  unit: 'Accommodatie', previousMonth: 'Vorige maand', nextMonth: 'Volgende maand', calendar: 'Kies je data',
  available: 'beschikbaar', unavailable: 'niet beschikbaar', checkInDay: 'aankomst mogelijk', checkoutDay: 'vertrek mogelijk',
  from: 'vanaf', checkIn: 'Aankomst', checkout: 'Vertrek', chooseCheckIn: 'Kies een aankomstdag.',
  chooseCheckout: 'Aankomst {date}. Kies nu een vertrekdag.', datesChosen: '{start} tot {end} gekozen.',
  guests: 'Gasten', extras: 'Extra\'s', none: 'Geen', coupon: 'Kortingscode', quote: 'Toon prijs', price: 'Prijs',
  total: 'Totaal', deposit: 'Borg', details: 'Jouw gegevens', firstName: 'Voornaam', lastName: 'Achternaam',
  email: 'E-mail', phone: 'Telefoon', book: 'Nu boeken', request: 'Boekingsaanvraag versturen', loading: 'Laden…',
  confirmed: 'Bedankt! Je boeking {reference} is gemaakt.', requested: 'Bedankt! Je aanvraag {reference} is verstuurd.',
  pay: 'Nu betalen', guestPage: 'Bekijk je boeking', quantity: 'Aantal', between: '{min} tot {max}', atLeast: 'minstens {min}',
  required: 'verplicht', selectDates: 'Kies eerst een aankomst- en vertrekdag.',
  chooseCheckoutMinimum: 'Aankomst {date}. Kies nu een vertrekdag: een verblijf is minimaal {n} nachten.',
  minimumStay: 'Een verblijf hier is minimaal {n} nachten: kies een vertrekdag vanaf {date}.',
  chooseLastDayMinimum: 'Eerste dag {date}. Kies nu de laatste dag: een verblijf is minimaal {n} dagen.',
  minimumDays: 'Een verblijf hier is minimaal {n} dagen: kies een laatste dag vanaf {date}.',
  contactRequired: 'Vul je naam en e-mailadres in.', datesTaken: 'Deze data zijn niet meer beschikbaar. Kies andere data.',
  networkError: 'De boekingsdienst is niet bereikbaar. Probeer het opnieuw.',
  formInactive: 'Dit boekingsformulier is niet meer actief — neem contact op met de verhuurder.', paymentSchedule: 'Betalingen',
  payNow: '{amount} nu', payOn: '{amount} vóór {date}',
  cancellationPolicy: 'Annuleringsvoorwaarden', bookingTerms: 'Boekingsvoorwaarden',
  acceptTerms: 'Ik ga akkoord met de boekingsvoorwaarden en de annuleringsvoorwaarden',
  acceptTermsRequired: 'Ga akkoord met de boekingsvoorwaarden en de annuleringsvoorwaarden om te boeken.',
  photosOf: 'Foto\'s van {unit}', photosHint: 'Veeg of gebruik de pijltjestoetsen voor meer foto\'s', photoOf: 'Foto {n} van {total}',
  previousPhoto: 'Vorige foto', nextPhoto: 'Volgende foto', keyFacts: 'Kenmerken', upToGuests: 'Maximaal {n} gasten',
  oneGuest: '1 gast', checkInUntil: 'Aankomst tot {time}',
  previewNote: 'Voorbeeld: op je website zien gasten hier de prijs en boeken ze.',
};

const de: Labels = {
  unit: 'Unterkunft', previousMonth: 'Voriger Monat', nextMonth: 'Nächster Monat', calendar: 'Wählen Sie Ihre Daten',
  available: 'verfügbar', unavailable: 'nicht verfügbar', checkInDay: 'Anreise möglich', checkoutDay: 'Abreise möglich',
  from: 'ab', checkIn: 'Anreise', checkout: 'Abreise', chooseCheckIn: 'Wählen Sie einen Anreisetag.',
  chooseCheckout: 'Anreise {date}. Wählen Sie jetzt einen Abreisetag.', datesChosen: '{start} bis {end} gewählt.',
  guests: 'Gäste', extras: 'Extras', none: 'Keine', coupon: 'Gutscheincode', quote: 'Preis anzeigen', price: 'Preis',
  total: 'Gesamt', deposit: 'Kaution', details: 'Ihre Angaben', firstName: 'Vorname', lastName: 'Nachname',
  email: 'E-Mail', phone: 'Telefon', book: 'Jetzt buchen', request: 'Buchungsanfrage senden', loading: 'Wird geladen…',
  confirmed: 'Danke! Ihre Buchung {reference} ist erfolgt.', requested: 'Danke! Ihre Anfrage {reference} wurde gesendet.',
  pay: 'Jetzt bezahlen', guestPage: 'Ihre Buchung ansehen', quantity: 'Anzahl', between: '{min} bis {max}', atLeast: 'mindestens {min}',
  required: 'Pflichtfeld', selectDates: 'Wählen Sie zuerst einen Anreise- und Abreisetag.',
  chooseCheckoutMinimum: 'Anreise {date}. Wählen Sie jetzt einen Abreisetag: ein Aufenthalt dauert mindestens {n} Nächte.',
  minimumStay: 'Ein Aufenthalt dauert hier mindestens {n} Nächte: Wählen Sie einen Abreisetag ab {date}.',
  chooseLastDayMinimum: 'Erster Tag {date}. Wählen Sie jetzt den letzten Tag: ein Aufenthalt dauert mindestens {n} Tage.',
  minimumDays: 'Ein Aufenthalt dauert hier mindestens {n} Tage: Wählen Sie einen letzten Tag ab {date}.',
  contactRequired: 'Bitte geben Sie Ihren Namen und Ihre E-Mail-Adresse an.', datesTaken: 'Diese Daten sind nicht mehr verfügbar. Bitte wählen Sie andere.',
  networkError: 'Der Buchungsdienst ist nicht erreichbar. Bitte versuchen Sie es erneut.',
  formInactive: 'Dieses Buchungsformular ist nicht mehr aktiv — bitte wenden Sie sich an den Gastgeber.', paymentSchedule: 'Zahlungen',
  payNow: '{amount} sofort', payOn: '{amount} bis {date}',
  cancellationPolicy: 'Stornierungsbedingungen', bookingTerms: 'Buchungsbedingungen',
  acceptTerms: 'Ich akzeptiere die Buchungsbedingungen und die Stornierungsbedingungen',
  acceptTermsRequired: 'Bitte akzeptieren Sie die Buchungsbedingungen und die Stornierungsbedingungen, um zu buchen.',
  photosOf: 'Fotos von {unit}', photosHint: 'Wischen oder Pfeiltasten für weitere Fotos', photoOf: 'Foto {n} von {total}',
  previousPhoto: 'Vorheriges Foto', nextPhoto: 'Nächstes Foto', keyFacts: 'Eckdaten', upToGuests: 'Bis zu {n} Gäste',
  oneGuest: '1 Gast', checkInUntil: 'Anreise bis {time}',
  previewNote: 'Vorschau: Auf Ihrer Website sehen Gäste hier den Preis und buchen.',
};

const LABELS: Record<string, Labels> = { en, nl, de };

/** The first of `preferred` the widget speaks (by primary subtag), else `fallback`, else English. */
export function chooseLanguage(preferred: readonly string[], fallback: string): string {
  for (const tag of [...preferred, fallback]) {
    const primary = tag.toLowerCase().split('-')[0]!;
    if (primary in LABELS) return primary;
  }
  return 'en';
}

export type Translate = (key: keyof Labels, values?: Record<string, string | number>) => string;

export function translator(language: string): Translate {
  const labels = LABELS[language] ?? en;
  return (key, values = {}) => labels[key].replace(/\{(\w+)\}/g, (_, name: string) => String(values[name] ?? ''));
}

/** `text` in `language` by the server's one rule (src/common/languages.ts): `nl` finds `nl-NL` and back. */
export function localize(text: MultiLanguageString | null | undefined, language: string): string {
  return localizedText(text, language);
}

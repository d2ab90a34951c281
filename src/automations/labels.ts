/**
 * The words of the blocks Staykit adds to a template's e-mail (booking details, the link), and the names of payment
 * methods (`payment.method`, keyed by `payments.method`), in the guest's language.
 */
import { translator, type GuestLanguage, type Translate } from '../common/translate.js';

const en = {
  booking: 'Booking {reference} — {unit}', arrival: 'Arrival: {date}', departure: 'Departure: {date}',
  firstDay: 'First day: {date}', lastDay: 'Last day: {date}', total: 'Total: {amount}',
  deposit: 'Refundable deposit: {amount}', yourBooking: 'Your booking: {url}', viewBooking: 'View your booking',
  card: 'card', ideal: 'iDEAL', bank_transfer: 'bank transfer', cash: 'cash', paypal: 'PayPal', other: 'other means',
};
export type MessageLabels = typeof en;

const TABLES: Record<GuestLanguage, MessageLabels> = {
  en,
  nl: {
    booking: 'Boeking {reference} — {unit}', arrival: 'Aankomst: {date}', departure: 'Vertrek: {date}',
    firstDay: 'Eerste dag: {date}', lastDay: 'Laatste dag: {date}', total: 'Totaal: {amount}',
    deposit: 'Borg (wordt terugbetaald): {amount}', yourBooking: 'Je boeking: {url}', viewBooking: 'Bekijk je boeking',
    card: 'kaart', ideal: 'iDEAL', bank_transfer: 'bankoverschrijving', cash: 'contant', paypal: 'PayPal', other: 'een andere manier',
  },
  de: {
    booking: 'Buchung {reference} — {unit}', arrival: 'Anreise: {date}', departure: 'Abreise: {date}',
    firstDay: 'Erster Tag: {date}', lastDay: 'Letzter Tag: {date}', total: 'Gesamt: {amount}',
    deposit: 'Kaution (wird erstattet): {amount}', yourBooking: 'Ihre Buchung: {url}', viewBooking: 'Ihre Buchung ansehen',
    card: 'Karte', ideal: 'iDEAL', bank_transfer: 'Überweisung', cash: 'bar', paypal: 'PayPal', other: 'auf anderem Weg',
  },
};

export function messageLabels(language: string): Translate<MessageLabels> {
  return translator(TABLES, language);
}

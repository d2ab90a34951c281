/**
 * The reports page's words: filters, figures, charts and the tables' columns — the CSV's header is the table's, in
 * the reader's language (docs/dashboard.md#reports).
 */
import { defineMessages } from '../i18n/messages.js';

export const reportsMessages = defineMessages({
  title: 'Reports',
  noAccess: 'No access to reports', noAccessText: 'Reports need the permission reports:read. An owner or admin can grant it on the Members page.',
  filters: 'Report filters', units: 'Units', allUnits: 'All units', months: 'Months', deleted: '{{name}} (deleted)',
  loading: 'Loading the report', failed: 'The report could not be loaded',
  otherCurrencies_one: 'Amounts per month are in {{currency}}: {{count}} unit is priced in another currency, counted in occupancy and shown in its own currency per unit.',
  otherCurrencies_other: 'Amounts per month are in {{currency}}: {{count}} units are priced in another currency, counted in occupancy and shown in their own currency per unit.',
  thisPeriod: 'This period', yearEarlier: 'A year earlier', period: 'The period',
  figures: { occupancy: 'Occupancy', revenue: 'Revenue', adr: 'ADR', bookings: 'Bookings', bookedNights: 'Booked nights', availableNights: 'Available nights' },
  charts: {
    occupancy: 'Occupancy per month', revenue: 'Revenue per month ({{currency}})', adr: 'ADR per month ({{currency}})',
    sources: 'Bookings by source (arrivals in the period)',
    pickup: 'Pickup: nights on the books of the coming months, by booking date',
    noPickup: 'Pickup: choose months from this month on to see how their nights were booked.',
    daysBeforeAxis: 'days before the month starts', daysBefore_one: '{{count}} day before', daysBefore_other: '{{count}} days before',
  },
  sources: { dashboard: 'Dashboard', widget: 'Booking widget', site: 'Staykit site', import: 'Channel import', api: 'API' },
  tables: { perMonth: 'Per month', perUnit: 'Per unit', export: 'Export CSV', month: 'Month', unit: 'Unit', currency: 'Currency' },
  /** A column of a figure: of the period, of the year before (`period` names it), and either with the currency. */
  column: { before: '{{figure}} {{period}}', inCurrency: '{{figure}} ({{currency}})' },
}, {
  nl: {
    title: 'Rapporten',
    noAccess: 'Geen toegang tot rapporten', noAccessText: 'Voor rapporten is het recht reports:read nodig. Een eigenaar of beheerder kan het geven op de pagina Leden.',
    filters: 'Filters van het rapport', units: 'Accommodaties', allUnits: 'Alle accommodaties', months: 'Maanden', deleted: '{{name}} (verwijderd)',
    loading: 'Het rapport wordt geladen', failed: 'Het rapport kon niet worden geladen',
    otherCurrencies_one: 'Bedragen per maand zijn in {{currency}}: {{count}} accommodatie heeft prijzen in een andere valuta; die telt mee voor de bezetting en staat per accommodatie in haar eigen valuta.',
    otherCurrencies_other: 'Bedragen per maand zijn in {{currency}}: {{count}} accommodaties hebben prijzen in een andere valuta; die tellen mee voor de bezetting en staan per accommodatie in hun eigen valuta.',
    thisPeriod: 'Deze periode', yearEarlier: 'Een jaar eerder', period: 'De periode',
    figures: { occupancy: 'Bezetting', revenue: 'Omzet', adr: 'Gem. nachtprijs', bookings: 'Boekingen', bookedNights: 'Geboekte nachten', availableNights: 'Beschikbare nachten' },
    charts: {
      occupancy: 'Bezetting per maand', revenue: 'Omzet per maand ({{currency}})', adr: 'Gem. nachtprijs per maand ({{currency}})',
      sources: 'Boekingen per bron (aankomsten in de periode)',
      pickup: 'Boekingsverloop: geboekte nachten van de komende maanden, naar boekingsdatum',
      noPickup: 'Boekingsverloop: kies maanden vanaf deze maand om te zien hoe hun nachten werden geboekt.',
      daysBeforeAxis: 'dagen voor het begin van de maand', daysBefore_one: '{{count}} dag ervoor', daysBefore_other: '{{count}} dagen ervoor',
    },
    sources: { dashboard: 'Dashboard', widget: 'Boekingswidget', site: 'Staykit-site', import: 'Kanaalimport', api: 'API' },
    tables: { perMonth: 'Per maand', perUnit: 'Per accommodatie', export: 'CSV exporteren', month: 'Maand', unit: 'Accommodatie', currency: 'Valuta' },
    column: { before: '{{figure}} {{period}}', inCurrency: '{{figure}} ({{currency}})' },
  },
  de: {
    title: 'Berichte',
    noAccess: 'Kein Zugriff auf Berichte', noAccessText: 'Für Berichte ist die Berechtigung reports:read nötig. Ein Eigentümer oder Admin kann sie auf der Seite Mitglieder erteilen.',
    filters: 'Filter des Berichts', units: 'Unterkünfte', allUnits: 'Alle Unterkünfte', months: 'Monate', deleted: '{{name}} (gelöscht)',
    loading: 'Der Bericht wird geladen', failed: 'Der Bericht konnte nicht geladen werden',
    otherCurrencies_one: 'Beträge pro Monat sind in {{currency}}: {{count}} Unterkunft hat Preise in einer anderen Währung; sie zählt bei der Auslastung mit und wird pro Unterkunft in ihrer eigenen Währung gezeigt.',
    otherCurrencies_other: 'Beträge pro Monat sind in {{currency}}: {{count}} Unterkünfte haben Preise in einer anderen Währung; sie zählen bei der Auslastung mit und werden pro Unterkunft in ihrer eigenen Währung gezeigt.',
    thisPeriod: 'Dieser Zeitraum', yearEarlier: 'Ein Jahr zuvor', period: 'Der Zeitraum',
    figures: { occupancy: 'Auslastung', revenue: 'Umsatz', adr: 'Ø Nachtpreis', bookings: 'Buchungen', bookedNights: 'Gebuchte Nächte', availableNights: 'Verfügbare Nächte' },
    charts: {
      occupancy: 'Auslastung pro Monat', revenue: 'Umsatz pro Monat ({{currency}})', adr: 'Ø Nachtpreis pro Monat ({{currency}})',
      sources: 'Buchungen nach Quelle (Anreisen im Zeitraum)',
      pickup: 'Buchungsverlauf: gebuchte Nächte der kommenden Monate nach Buchungsdatum',
      noPickup: 'Buchungsverlauf: Wählen Sie Monate ab diesem Monat, um zu sehen, wie ihre Nächte gebucht wurden.',
      daysBeforeAxis: 'Tage vor Monatsbeginn', daysBefore_one: '{{count}} Tag vorher', daysBefore_other: '{{count}} Tage vorher',
    },
    sources: { dashboard: 'Dashboard', widget: 'Buchungs-Widget', site: 'Staykit-Website', import: 'Kanalimport', api: 'API' },
    tables: { perMonth: 'Pro Monat', perUnit: 'Pro Unterkunft', export: 'CSV exportieren', month: 'Monat', unit: 'Unterkunft', currency: 'Währung' },
    column: { before: '{{figure}} {{period}}', inCurrency: '{{figure}} ({{currency}})' },
  },
});

/**
 * The list's columns, once: each with its header, whether the member may read it, its cell on the page and its text in
 * the CSV export — so the export holds what the table shows (plus the guest's e-mail and the currency, for spreadsheets).
 */
import type { ReactNode } from 'react';
import { Anchor } from '@mantine/core';
import type { TFunction } from 'i18next';
import type { Can } from '../../api/permissions';
import { localized, type Formatter } from '../../common/format';
import { Link } from '../../common/router';
import { StatusBadge } from '../../common/StatusBadge';
import { PaymentBadge } from '../PaymentBadge';
import { bookingTotal, paymentState, type PaymentState } from '../queries';
import { sourceOf, type ListedBooking } from './list-query';

const PAYMENT_KEYS = { paid: 'paid', 'partly paid': 'partlyPaid', unpaid: 'unpaid', 'nothing to pay': 'nothingToPay' } as const satisfies Record<PaymentState, string>;

export interface Column {
  key: string;
  header: string;
  /** The table leaves it out (the CSV keeps it). */
  exportOnly?: boolean;
  numeric?: boolean;
  text: (row: ListedBooking) => string;
  cell?: (row: ListedBooking) => ReactNode;
}

/** An amount in major units as plain text (`1234.50`), with the currency's own number of decimals. */
function majorUnits(minor: number, currency: string): string {
  const digits = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  return (minor / 10 ** digits).toFixed(digits);
}

const guestOf = (row: ListedBooking) => row.bookings.contact_bookings?.[0]?.contacts;

/** The columns `can` lets the member read, in the language of `t`, dates and money by `format`. */
export function listColumns(t: TFunction<'bookings'>, can: Can, format: Formatter, locale: string): Column[] {
  const columns: (Column | false)[] = [
    { key: 'reference', header: t('columns.reference'), text: (row) => row.bookings.reference,
      cell: (row) => <Anchor component={Link} to={`/bookings/${row.booking_id}`} ff="monospace">{row.bookings.reference}</Anchor> },
    can('contacts') && { key: 'guest', header: t('columns.guest'), text: (row) => { const guest = guestOf(row); return guest ? `${guest.first_name} ${guest.last_name}`.trim() : ''; },
      cell: (row) => { const guest = guestOf(row); return guest ? `${guest.first_name} ${guest.last_name}` : '—'; } },
    can('contacts') && { key: 'email', header: t('columns.email'), exportOnly: true, text: (row) => guestOf(row)?.email ?? '' },
    { key: 'unit', header: t('columns.unit'), text: (row) => localized(row.products?.name, locale) },
    { key: 'arrival', header: t('columns.arrival'), text: (row) => row.start_date, cell: (row) => format.date(row.start_date) },
    { key: 'departure', header: t('columns.departure'), text: (row) => row.end_date, cell: (row) => format.date(row.end_date) },
    { key: 'status', header: t('columns.status'), text: (row) => t(`statuses.${row.status}`), cell: (row) => <StatusBadge status={row.status} /> },
    { key: 'source', header: t('columns.source'), text: (row) => t(`sources.${sourceOf(row)}`) },
    { key: 'booked', header: t('columns.booked'), exportOnly: true, text: (row) => row.bookings.created_at },
    can('line_items') && { key: 'total', header: t('columns.total'), numeric: true,
      // In the export a plain number in major units, which a spreadsheet can add up.
      text: (row) => { const total = bookingTotal(row); return total === undefined ? '' : majorUnits(total, row.bookings.currency); },
      cell: (row) => { const total = bookingTotal(row); return total === undefined ? '—' : format.money(total, row.bookings.currency); } },
    can('line_items') && { key: 'currency', header: t('columns.currency'), exportOnly: true, text: (row) => row.bookings.currency },
    can('payments') && { key: 'payment', header: t('columns.payment'),
      text: (row) => { const state = paymentState(row); return state ? t(`paymentStates.${PAYMENT_KEYS[state]}`) : ''; },
      cell: (row) => <PaymentBadge state={paymentState(row)} /> },
  ];
  return columns.filter((column): column is Column => column !== false);
}

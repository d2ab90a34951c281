/**
 * A booking's whole history in one timeline: changes of the booking and its stay (`booking_updates`,
 * `calendar_event_updates`), payments and refunds, invoices, messages and notes — each from the moment it happened,
 * oldest first. Only the parts the member may read are there (the others are null in the detail).
 */
import type { Enums } from '../api/database';
import type { BookingDetail } from './queries';

interface Entry<Kind extends string, Data> {
  kind: Kind;
  id: string;
  at: string;
  /** The member who did it, null for the API or the system; undefined where the source does not say. */
  by?: string | null;
  data: Data;
}

type Money = { amount: number; currency: string };
type StayStatus = Enums<'calendar_events_status'> | null;

export type HistoryEntry =
  | Entry<'bookingChanged', { fields: string[] }>
  | Entry<'stayCreated', { status: StayStatus }>
  | Entry<'statusChanged', { from: StayStatus; to: StayStatus }>
  | Entry<'stayUpdated', { fields: string[] }>
  | Entry<'stayDeleted', Record<string, never>>
  | Entry<'paymentPaid', Money & { method: Enums<'payments_method'> }>
  | Entry<'paymentScheduled', Money & { due: string }>
  | Entry<'paymentAdded', Money & { status: Enums<'payments_status'> }>
  | Entry<'refund', Money & { status: Enums<'refunds_status'> }>
  | Entry<'invoiceDraft', Money>
  | Entry<'invoiceIssued', Money & { number: string }>
  | Entry<'invoiceNow', { number: string; status: Enums<'invoices_status'> }>
  | Entry<'message', { direction: Enums<'messages_direction'>; address: string; subject: string }>
  | Entry<'note', { note: string }>;

export function bookingHistory(detail: BookingDetail): HistoryEntry[] {
  const entries: HistoryEntry[] = [];
  for (const update of detail.bookingUpdates ?? []) {
    entries.push({ kind: 'bookingChanged', id: update.id, at: update.created_at, by: update.user_id, data: { fields: update.changed_fields } });
  }
  for (const update of detail.eventUpdates ?? []) {
    const base = { id: update.id, at: update.created_at, by: update.user_id };
    if (update.kind === 'created') entries.push({ ...base, kind: 'stayCreated', data: { status: update.status } });
    else if (update.kind === 'deleted') entries.push({ ...base, kind: 'stayDeleted', data: {} });
    else if (update.previous_status !== update.status) entries.push({ ...base, kind: 'statusChanged', data: { from: update.previous_status, to: update.status } });
    else entries.push({ ...base, kind: 'stayUpdated', data: { fields: update.changed_fields } });
  }
  for (const payment of detail.payments ?? []) {
    const money = { amount: payment.amount, currency: payment.currency };
    if (payment.paid_at) entries.push({ kind: 'paymentPaid', id: payment.id, at: payment.paid_at, data: { ...money, method: payment.method } });
    else if (payment.due_at) entries.push({ kind: 'paymentScheduled', id: payment.id, at: payment.created_at, data: { ...money, due: payment.due_at } });
    else entries.push({ kind: 'paymentAdded', id: payment.id, at: payment.created_at, data: { ...money, status: payment.status } });
    for (const refund of payment.refunds ?? []) {
      entries.push({ kind: 'refund', id: refund.id, at: refund.created_at, data: { amount: refund.amount, currency: payment.currency, status: refund.status } });
    }
  }
  for (const invoice of detail.invoices ?? []) {
    const money = { amount: invoice.total, currency: invoice.currency };
    if (!invoice.issued_at || !invoice.number) {
      entries.push({ kind: 'invoiceDraft', id: invoice.id, at: invoice.created_at, data: money });
      continue;
    }
    entries.push({ kind: 'invoiceIssued', id: invoice.id, at: invoice.issued_at, data: { ...money, number: invoice.number } });
    if (invoice.status === 'paid' || invoice.status === 'void') {
      entries.push({ kind: 'invoiceNow', id: `${invoice.id}-${invoice.status}`, at: invoice.paid_at ?? invoice.updated_at, data: { number: invoice.number, status: invoice.status } });
    }
  }
  for (const message of detail.messages ?? []) {
    const address = message.direction === 'inbound' ? message.from_address ?? '' : message.to_address;
    entries.push({ kind: 'message', id: message.id, at: message.sent_at ?? message.created_at, data: { direction: message.direction, address, subject: message.subject } });
  }
  for (const note of detail.notes ?? []) {
    entries.push({ kind: 'note', id: note.id, at: note.created_at, by: note.author_id, data: { note: note.note } });
  }
  return entries.sort((a, b) => Date.parse(a.at) - Date.parse(b.at) || a.id.localeCompare(b.id));
}

/**
 * E-mails from the booking page (docs/automations.md#messages): one sent before sent again, and a payment link
 * e-mailed to the guest — each a new outbound message of the booking, delivered as every message is.
 */
import { database, rowsOf } from '../api/database';

export interface SentMessage {
  id: string;
  status: string;
  to_address: string;
  subject: string;
  body: string;
  contact_id: string | null;
}

/** A failed message is queued again (the documented way to retry it); one that went out is sent once more as a copy. */
export async function resendMessage(bookingId: string, message: SentMessage): Promise<void> {
  if (message.status === 'failed') {
    rowsOf(await database.from('messages').update({ status: 'queued' }).eq('id', message.id).select('id'));
    return;
  }
  await sendMessage(bookingId, { to_address: message.to_address, subject: message.subject, body: message.body, contact_id: message.contact_id });
}

export async function sendMessage(bookingId: string, message: { to_address: string; subject: string; body: string; contact_id: string | null }): Promise<void> {
  rowsOf(await database.from('messages').insert({ booking_id: bookingId, channel: 'email', direction: 'outbound', ...message }).select('id'));
}

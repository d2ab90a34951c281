/**
 * A host notification job (migration 0219): tell the organization's members about a new booking, a booking request,
 * a cancellation, a guest's cancellation request or a guest's e-mail (0244) — one e-mail to each active member with an e-mail address who
 * gets that notification (members.notify, or their role's default) and may read what it shows, in the organization's language, with the stay,
 * the guest, the total, the guest's message when there is one, and a link to the booking in the dashboard. The
 * e-mails are queued like any other message, on the booking, and the job is done in the same transaction.
 */
import { hasScope } from '../auth/scopes.js';
import { memberScopes, type MemberPermission } from '../auth/session-permissions.js';
import { guestCount, type OccupancyGroup } from '../common/guests.js';
import { localizedText } from '../common/languages.js';
import { describeDelivery, finishJob, holdJob, insertMessage, type ClaimedJob } from './queries.js';
import type { AutomationRuntime, JobReport } from './runtime.js';
import { HOST_NOTIFICATIONS, hostNotificationLabels, type HostNotification } from './host-notification-labels.js';
import { formatMoney } from './variables.js';

interface NotifiedBooking {
  id: string;
  reference: string;
  currency: string;
  occupancy: Record<string, number> | null;
  language: string;
  unit: Record<string, string> | null;
  start_date: string | null;
  end_date: string | null;
  groups: OccupancyGroup[];
  total: number;
  guest: { first_name: string; last_name: string; email: string | null; phone: string | null } | null;
  guest_message: string | null;
  /** The tables the e-mail shows data of: its webhook event's read scopes (the same payload, migration 0218). */
  read_scopes: string[];
  recipients: { name: string; email: string; role: string; permissions: MemberPermission[] }[];
}

const BOOKING = `
  SELECT b.id, b.reference, b.currency, b.occupancy, o.language, stay.name AS unit,
         stay.start_date::text AS start_date, stay.end_date::text AS end_date,
         coalesce((SELECT json_agg(json_build_object('id', g.id, 'name', g.name, 'accumulator', EXISTS (
                     SELECT 1 FROM api.capacity_group_dependencies AS d
                     WHERE d.accumulator_id = g.id AND d.organization_id = g.organization_id)))
                   FROM api.capacity_groups AS g WHERE g.organization_id = b.organization_id), '[]') AS groups,
         (SELECT coalesce(sum(l.amount), 0)::bigint FROM api.line_items AS l
          WHERE l.booking_id = b.id AND l.organization_id = b.organization_id AND l.fee_type = 'fee') AS total,
         (SELECT json_build_object('first_name', c.first_name, 'last_name', c.last_name, 'email', c.email, 'phone', c.phone)
          FROM api.contact_bookings AS cb JOIN api.contacts AS c ON c.id = cb.contact_id AND c.organization_id = cb.organization_id
          WHERE cb.booking_id = b.id AND cb.organization_id = b.organization_id ORDER BY cb.created_at, cb.id LIMIT 1) AS guest,
         CASE $3 WHEN 'booking.cancellation_requested' THEN
           (SELECT m.body FROM staykit_internal.cancellation_requests AS r
            JOIN api.messages AS m ON m.id = r.message_id AND m.organization_id = r.organization_id
            WHERE r.booking_id = b.id AND r.organization_id = b.organization_id)
           WHEN 'messages.received' THEN
           (SELECT m.body FROM api.messages AS m
            WHERE m.booking_id = b.id AND m.organization_id = b.organization_id AND m.direction = 'inbound'
            ORDER BY m.created_at DESC, m.id DESC LIMIT 1) END AS guest_message,
         -- messages.received's payload is the message alone; its e-mail shows the booking too, as booking.created's does.
         (SELECT array_agg(DISTINCT scope) FROM staykit_internal.webhook_event_types AS t, unnest(t.read_scopes) AS scope
          WHERE t.name = $3 OR $3 = 'messages.received' AND t.name = 'booking.created') AS read_scopes,
         coalesce((SELECT json_agg(json_build_object('name', m.name, 'email', m.email, 'role', m.role, 'permissions', coalesce((
                     SELECT json_agg(json_build_object('resource', g.resource, 'access', g.access))
                     FROM api.permissions AS g WHERE g.member_id = m.id AND g.organization_id = m.organization_id), '[]'))
                   ORDER BY m.name, m.id)
                   FROM api.members AS m
                   WHERE m.organization_id = b.organization_id AND m.active AND m.email IS NOT NULL
                     AND $3 = ANY (staykit_internal.member_notifications(m.role, m.notify))), '[]') AS recipients
  FROM api.bookings AS b
  JOIN api.organizations AS o ON o.id = b.organization_id
  LEFT JOIN LATERAL (
    SELECT p.name, e.start_date, e.end_date FROM api.calendar_events AS e
    JOIN api.products AS p ON p.id = e.product_id AND p.organization_id = e.organization_id
    WHERE e.booking_id = b.id AND e.organization_id = b.organization_id
    ORDER BY e.status = 'CANCELLED', e.start_date, e.id LIMIT 1) AS stay ON true
  WHERE b.id = $1 AND b.organization_id = $2`;

function isHostNotification(value: string | null): value is HostNotification {
  return (HOST_NOTIFICATIONS as readonly (string | null)[]).includes(value);
}

function longDate(date: string, language: string): string {
  const format = (locale: string) => new Intl.DateTimeFormat(locale, { dateStyle: 'full', timeZone: 'UTC' }).format(new Date(`${date}T00:00:00Z`));
  try {
    return format(language);
  } catch {
    return format('en');
  }
}

function shortDates(start: string, end: string, language: string): string {
  const format = (locale: string) => new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' })
    .formatRange(new Date(`${start}T00:00:00Z`), new Date(`${end}T00:00:00Z`));
  try {
    return format(language);
  } catch {
    return format('en');
  }
}

/** The subject and body of one member's e-mail. */
export function hostNotificationMessage(notification: HostNotification, booking: NotifiedBooking, memberName: string, bookingUrl: string): { subject: string; body: string } {
  const t = hostNotificationLabels(booking.language);
  const unit = booking.unit === null ? '' : localizedText(booking.unit, booking.language);
  const dates = booking.start_date && booking.end_date ? shortDates(booking.start_date, booking.end_date, booking.language) : '';
  const guestName = booking.guest ? `${booking.guest.first_name} ${booking.guest.last_name}`.trim() : '';
  const guest = guestName || booking.guest?.email || t('aGuest');
  const subject = t(notification, { reference: booking.reference, unit, dates });
  const intro = {
    'booking.created': 'intro_created', 'booking.requested': 'intro_requested',
    'booking.cancelled': 'intro_cancelled', 'booking.cancellation_requested': 'intro_cancellation_requested',
    'messages.received': 'intro_message_received',
  } as const;
  const lines = [t('hello', { name: memberName }), '', t(intro[notification], { guest, unit })];
  if (booking.guest_message) lines.push('', t('theirMessage'), booking.guest_message);
  lines.push('');
  if (booking.start_date && booking.end_date) {
    lines.push(t('arrival', { date: longDate(booking.start_date, booking.language) }), t('departure', { date: longDate(booking.end_date, booking.language) }));
  }
  if (booking.occupancy) lines.push(t('guests', { count: guestCount(booking.occupancy, booking.groups) }));
  if (booking.guest) {
    const contact = [guestName, booking.guest.email, booking.guest.phone].filter((part) => part).join(', ');
    if (contact) lines.push(t('guest', { details: contact }));
  }
  lines.push(t('total', { amount: formatMoney(booking.total, booking.currency, booking.language) }), '', t('open', { url: bookingUrl }), '', t('why'));
  return { subject, body: lines.join('\n') };
}

export async function runHostNotificationJob(job: ClaimedJob, runtime: AutomationRuntime): Promise<JobReport> {
  return runtime.db.transaction(async (tx) => {
    const hold = holdJob(job);
    if ((await tx.query(hold.text, hold.values)).rows.length === 0) return { jobId: job.id, kind: job.kind, outcome: 'lost' };
    const finish = finishJob(job, runtime.now());
    const notification = job.notification;
    const booking = isHostNotification(notification)
      ? (await tx.query<NotifiedBooking>(BOOKING, [job.booking_id, job.organization_id, notification])).rows[0]
      : undefined;
    // Data derived from a table needs its read scope: a member who chose a notification gets it only while their
    // permissions let them read what it shows (the guest, the stay, the total, the guest's message).
    const recipients = (booking?.recipients ?? []).filter((member) => {
      const scopes = memberScopes(member.role, member.permissions);
      return booking!.read_scopes.every((table) => hasScope(scopes, table, 'read'));
    });
    if (!booking || !isHostNotification(notification) || recipients.length === 0) {
      await tx.query(finish.text, finish.values);
      return { jobId: job.id, kind: job.kind, outcome: 'skipped', detail: 'no booking, or no member gets this notification and may read it' };
    }
    const bookingUrl = `${runtime.publicUrl.replace(/\/+$/, '')}/admin/bookings/${booking.id}`;
    let messageId: string | undefined;
    for (const member of recipients) {
      const { subject, body } = hostNotificationMessage(notification, booking, member.name, bookingUrl);
      const insert = insertMessage(job.organization_id, {
        to_address: member.email, from_address: null, subject, body,
        booking_id: booking.id, contact_id: null, message_template_id: null,
      });
      messageId = (await tx.query<{ id: string }>(insert.text, insert.values)).rows[0]!.id;
      const describe = describeDelivery(messageId, [], null);
      await tx.query(describe.text, describe.values);
    }
    await tx.query(finish.text, finish.values);
    return { jobId: job.id, kind: job.kind, outcome: 'queued', messageId, detail: `${recipients.length} member(s)` };
  });
}

/**
 * The e-mails a new organization sends from its first booking on (docs/automations.md#default-templates): a
 * request received, a booking confirmed, cancelled or changed, a payment's reminder before it is due and its receipt
 * once paid, before arrival, during the stay, after departure —
 * each in English (the `default`), Dutch and German, as ordinary `email_templates` rows the organization edits,
 * disables or deletes like its own. Added when an organization is created by Staykit (`staykit org create`, the
 * demo), not by a bare INSERT: an integration that creates organizations through SQL decides for itself.
 */
import type { Queryable } from '../db/types.js';

type Texts = { default: string; nl: string; de: string };

export interface DefaultTemplate {
  /** What it is for (docs and tests; the rows themselves have no name). */
  purpose: string;
  trigger: 'created' | 'confirmed' | 'cancelled' | 'updated' | 'moment' | 'payment_received' | 'payment_due';
  moment?: { type: 'check-in' | 'checkout' | 'on-site'; offset: number };
  /** trigger payment_due: days from the payment's due date (migration 0226). */
  payment_due_offset?: number;
  time?: string;
  status: 'TENTATIVE' | 'CONFIRMED' | 'CANCELLED';
  subject: Texts;
  body: Texts;
  include_booking_details: boolean;
  include_booking_link: boolean;
  include_ical_data: boolean;
  include_product_image: boolean;
}

const signature: Texts = {
  default: '\n\nKind regards,\n{{ organization.name }}',
  nl: '\n\nMet vriendelijke groet,\n{{ organization.name }}',
  de: '\n\nMit freundlichen Grüßen\n{{ organization.name }}',
};

/** Each language's text with the signature after it. */
const signed = (texts: Texts): Texts => ({
  default: texts.default + signature.default, nl: texts.nl + signature.nl, de: texts.de + signature.de,
});

export const DEFAULT_TEMPLATES: readonly DefaultTemplate[] = [
  {
    purpose: 'booking request received', trigger: 'created', status: 'TENTATIVE',
    include_booking_details: true, include_booking_link: true, include_ical_data: false, include_product_image: true,
    subject: {
      default: 'We received your request for {{ product.name }} ({{ booking.reference }})',
      nl: 'We hebben je aanvraag voor {{ product.name }} ontvangen ({{ booking.reference }})',
      de: 'Wir haben Ihre Anfrage für {{ product.name }} erhalten ({{ booking.reference }})',
    },
    body: signed({
      default: 'Dear {{ guest.first_name }},\n\nThank you for your request to stay at {{ product.name }} from {{ stay.arrival }} to {{ stay.departure }}. We will look at it and let you know within a day whether we can confirm it. Nothing is charged until we do.',
      nl: 'Beste {{ guest.first_name }},\n\nBedankt voor je aanvraag voor {{ product.name }} van {{ stay.arrival }} tot {{ stay.departure }}. We bekijken hem en laten je binnen een dag weten of we hem kunnen bevestigen. Tot dan wordt er niets in rekening gebracht.',
      de: 'Guten Tag {{ guest.first_name }},\n\nvielen Dank für Ihre Anfrage für {{ product.name }} vom {{ stay.arrival }} bis {{ stay.departure }}. Wir prüfen sie und teilen Ihnen innerhalb eines Tages mit, ob wir sie bestätigen können. Bis dahin wird nichts berechnet.',
    }),
  },
  {
    purpose: 'booking confirmed', trigger: 'confirmed', status: 'CONFIRMED',
    include_booking_details: true, include_booking_link: true, include_ical_data: true, include_product_image: true,
    subject: {
      default: 'Your stay at {{ product.name }} is confirmed ({{ booking.reference }})',
      nl: 'Je verblijf in {{ product.name }} is bevestigd ({{ booking.reference }})',
      de: 'Ihr Aufenthalt in {{ product.name }} ist bestätigt ({{ booking.reference }})',
    },
    body: signed({
      default: 'Dear {{ guest.first_name }},\n\nYour booking is confirmed: {{ product.name }}, from {{ stay.arrival }} to {{ stay.departure }}, for {{ booking.guests }} guests. The total is {{ booking.total }}. Your booking page shows what is paid and what is still due, with a link to pay online; the stay is attached for your calendar.',
      nl: 'Beste {{ guest.first_name }},\n\nJe boeking is bevestigd: {{ product.name }}, van {{ stay.arrival }} tot {{ stay.departure }}, voor {{ booking.guests }} gasten. Het totaal is {{ booking.total }}. Op je boekingspagina zie je wat betaald is en wat nog openstaat, met een link om online te betalen; het verblijf zit als bijlage bij deze e-mail voor je agenda.',
      de: 'Guten Tag {{ guest.first_name }},\n\nIhre Buchung ist bestätigt: {{ product.name }}, vom {{ stay.arrival }} bis {{ stay.departure }}, für {{ booking.guests }} Gäste. Der Gesamtbetrag ist {{ booking.total }}. Ihre Buchungsseite zeigt, was bezahlt ist und was noch offen ist, mit einem Link zur Online-Zahlung; der Aufenthalt ist für Ihren Kalender angehängt.',
    }),
  },
  {
    purpose: 'booking cancelled or request declined', trigger: 'cancelled', status: 'CANCELLED',
    include_booking_details: false, include_booking_link: true, include_ical_data: false, include_product_image: false,
    subject: {
      default: 'Your booking {{ booking.reference }} is cancelled',
      nl: 'Je boeking {{ booking.reference }} is geannuleerd',
      de: 'Ihre Buchung {{ booking.reference }} ist storniert',
    },
    body: signed({
      default: 'Dear {{ guest.first_name }},\n\nYour booking of {{ product.name }} from {{ stay.arrival }} to {{ stay.departure }} is cancelled.{% if booking.refunded_minor > 0 %} We refund {{ booking.refunded }} to the way you paid.{% endif %} We hope to welcome you another time.',
      nl: 'Beste {{ guest.first_name }},\n\nJe boeking van {{ product.name }} van {{ stay.arrival }} tot {{ stay.departure }} is geannuleerd.{% if booking.refunded_minor > 0 %} We betalen {{ booking.refunded }} terug op de manier waarop je hebt betaald.{% endif %} We hopen je een andere keer te mogen verwelkomen.',
      de: 'Guten Tag {{ guest.first_name }},\n\nIhre Buchung von {{ product.name }} vom {{ stay.arrival }} bis {{ stay.departure }} ist storniert.{% if booking.refunded_minor > 0 %} Wir erstatten {{ booking.refunded }} auf dem Weg, auf dem Sie bezahlt haben.{% endif %} Wir hoffen, Sie ein anderes Mal begrüßen zu dürfen.',
    }),
  },
  {
    purpose: 'booking changed', trigger: 'updated', status: 'CONFIRMED',
    include_booking_details: true, include_booking_link: true, include_ical_data: true, include_product_image: false,
    subject: {
      default: 'Your booking {{ booking.reference }} has changed',
      nl: 'Je boeking {{ booking.reference }} is gewijzigd',
      de: 'Ihre Buchung {{ booking.reference }} wurde geändert',
    },
    body: signed({
      default: 'Dear {{ guest.first_name }},\n\nYour booking has changed. You now stay at {{ product.name }} from {{ stay.arrival }} to {{ stay.departure }}; the total is {{ booking.total }}. The attached calendar entry replaces the one you had.',
      nl: 'Beste {{ guest.first_name }},\n\nJe boeking is gewijzigd. Je verblijft nu in {{ product.name }} van {{ stay.arrival }} tot {{ stay.departure }}; het totaal is {{ booking.total }}. De bijgevoegde agenda-afspraak vervangt de vorige.',
      de: 'Guten Tag {{ guest.first_name }},\n\nIhre Buchung wurde geändert. Sie wohnen jetzt in {{ product.name }} vom {{ stay.arrival }} bis {{ stay.departure }}; der Gesamtbetrag ist {{ booking.total }}. Der angehängte Kalendereintrag ersetzt den bisherigen.',
    }),
  },
  {
    purpose: 'payment reminder', trigger: 'payment_due', payment_due_offset: -3, time: '10:00', status: 'CONFIRMED',
    include_booking_details: false, include_booking_link: true, include_ical_data: false, include_product_image: false,
    subject: {
      default: 'A reminder: {{ payment.amount }} for {{ product.name }} is due on {{ payment.due }}',
      nl: 'Herinnering: {{ payment.amount }} voor {{ product.name }} te betalen op {{ payment.due }}',
      de: 'Erinnerung: {{ payment.amount }} für {{ product.name }} fällig am {{ payment.due }}',
    },
    body: signed({
      default: 'Dear {{ guest.first_name }},\n\nA friendly reminder about your stay at {{ product.name }} from {{ stay.arrival }} to {{ stay.departure }}: the next payment, {{ payment.amount }}, is due on {{ payment.due }}. Your booking page shows what you have paid so far and how to pay. If you have paid already, thank you, and please ignore this e-mail.',
      nl: 'Beste {{ guest.first_name }},\n\nEen vriendelijke herinnering over je verblijf in {{ product.name }} van {{ stay.arrival }} tot {{ stay.departure }}: de volgende betaling, {{ payment.amount }}, moet op {{ payment.due }} voldaan zijn. Op je boekingspagina zie je wat je tot nu toe betaald hebt en hoe je kunt betalen. Heb je al betaald, dan bedankt en kun je deze e-mail negeren.',
      de: 'Guten Tag {{ guest.first_name }},\n\neine freundliche Erinnerung zu Ihrem Aufenthalt in {{ product.name }} vom {{ stay.arrival }} bis {{ stay.departure }}: Die nächste Zahlung über {{ payment.amount }} ist am {{ payment.due }} fällig. Ihre Buchungsseite zeigt, was Sie bisher bezahlt haben und wie Sie bezahlen können. Falls Sie bereits bezahlt haben, vielen Dank – dann betrachten Sie diese E-Mail bitte als gegenstandslos.',
    }),
  },
  {
    purpose: 'payment received', trigger: 'payment_received', status: 'CONFIRMED',
    include_booking_details: false, include_booking_link: true, include_ical_data: false, include_product_image: false,
    subject: {
      default: 'We received your payment of {{ payment.amount }} for {{ product.name }}',
      nl: 'We hebben je betaling van {{ payment.amount }} voor {{ product.name }} ontvangen',
      de: 'Wir haben Ihre Zahlung über {{ payment.amount }} für {{ product.name }} erhalten',
    },
    body: signed({
      default: 'Dear {{ guest.first_name }},\n\nThank you: we received your payment of {{ payment.amount }} on {{ payment.paid_on }} for your stay at {{ product.name }} from {{ stay.arrival }} to {{ stay.departure }}.{% if booking.to_pay_minor > 0 %} Still to pay: {{ booking.to_pay }}; your booking page shows when it is due.{% else %} Your stay is now paid in full.{% endif %}',
      nl: 'Beste {{ guest.first_name }},\n\nBedankt: we hebben op {{ payment.paid_on }} je betaling van {{ payment.amount }} ontvangen voor je verblijf in {{ product.name }} van {{ stay.arrival }} tot {{ stay.departure }}.{% if booking.to_pay_minor > 0 %} Nog te betalen: {{ booking.to_pay }}; op je boekingspagina zie je wanneer.{% else %} Je verblijf is nu volledig betaald.{% endif %}',
      de: 'Guten Tag {{ guest.first_name }},\n\nvielen Dank: Wir haben am {{ payment.paid_on }} Ihre Zahlung über {{ payment.amount }} für Ihren Aufenthalt in {{ product.name }} vom {{ stay.arrival }} bis {{ stay.departure }} erhalten.{% if booking.to_pay_minor > 0 %} Noch offen: {{ booking.to_pay }}; Ihre Buchungsseite zeigt, wann der Betrag fällig ist.{% else %} Ihr Aufenthalt ist damit vollständig bezahlt.{% endif %}',
    }),
  },
  {
    purpose: 'before arrival', trigger: 'moment', moment: { type: 'check-in', offset: -3 }, time: '10:00', status: 'CONFIRMED',
    include_booking_details: false, include_booking_link: true, include_ical_data: false, include_product_image: true,
    subject: {
      default: 'Your stay at {{ product.name }} starts on {{ stay.arrival }}',
      nl: 'Je verblijf in {{ product.name }} begint op {{ stay.arrival }}',
      de: 'Ihr Aufenthalt in {{ product.name }} beginnt am {{ stay.arrival }}',
    },
    body: signed({
      default: 'Dear {{ guest.first_name }},\n\nIn a few days you arrive at {{ product.name }}. The address is {{ product.address }}. Check-in is from 15:00; let us know if you will arrive late. We look forward to welcoming you.',
      nl: 'Beste {{ guest.first_name }},\n\nOver een paar dagen kom je aan in {{ product.name }}. Het adres is {{ product.address }}. Inchecken kan vanaf 15:00; laat het ons weten als je laat aankomt. We kijken ernaar uit je te verwelkomen.',
      de: 'Guten Tag {{ guest.first_name }},\n\nin wenigen Tagen kommen Sie in {{ product.name }} an. Die Adresse ist {{ product.address }}. Check-in ist ab 15:00 Uhr; sagen Sie uns Bescheid, wenn Sie spät ankommen. Wir freuen uns auf Sie.',
    }),
  },
  {
    purpose: 'during the stay', trigger: 'moment', moment: { type: 'on-site', offset: 0 }, time: '11:00', status: 'CONFIRMED',
    include_booking_details: false, include_booking_link: false, include_ical_data: false, include_product_image: false,
    subject: {
      default: 'Is everything to your liking at {{ product.name }}?',
      nl: 'Is alles naar wens in {{ product.name }}?',
      de: 'Ist in {{ product.name }} alles zu Ihrer Zufriedenheit?',
    },
    body: signed({
      default: 'Dear {{ guest.first_name }},\n\nWe hope you had a good first night. If anything is missing or not working, reply to this e-mail and we will take care of it.',
      nl: 'Beste {{ guest.first_name }},\n\nWe hopen dat je een goede eerste nacht hebt gehad. Mist er iets of werkt er iets niet, antwoord dan op deze e-mail en we lossen het op.',
      de: 'Guten Tag {{ guest.first_name }},\n\nwir hoffen, Sie hatten eine gute erste Nacht. Wenn etwas fehlt oder nicht funktioniert, antworten Sie auf diese E-Mail, und wir kümmern uns darum.',
    }),
  },
  {
    purpose: 'after departure', trigger: 'moment', moment: { type: 'checkout', offset: 1 }, time: '10:00', status: 'CONFIRMED',
    include_booking_details: false, include_booking_link: false, include_ical_data: false, include_product_image: false,
    subject: {
      default: 'Thank you for staying at {{ product.name }}',
      nl: 'Bedankt voor je verblijf in {{ product.name }}',
      de: 'Vielen Dank für Ihren Aufenthalt in {{ product.name }}',
    },
    body: signed({
      default: 'Dear {{ guest.first_name }},\n\nThank you for staying with us. We hope you enjoyed {{ product.name }}. If you have a moment, tell us how it was by replying to this e-mail: it helps us and future guests.',
      nl: 'Beste {{ guest.first_name }},\n\nBedankt voor je verblijf. We hopen dat je genoten hebt van {{ product.name }}. Heb je even tijd, vertel ons dan hoe het was door op deze e-mail te antwoorden: dat helpt ons en toekomstige gasten.',
      de: 'Guten Tag {{ guest.first_name }},\n\nvielen Dank für Ihren Aufenthalt. Wir hoffen, Sie haben {{ product.name }} genossen. Wenn Sie einen Moment Zeit haben, erzählen Sie uns, wie es war, indem Sie auf diese E-Mail antworten: Das hilft uns und künftigen Gästen.',
    }),
  },
];

/** Adds the default e-mail templates to a new organization (in the caller's transaction). */
export async function addDefaultTemplates(tx: Queryable, organizationId: string): Promise<number> {
  const rows = DEFAULT_TEMPLATES.map(({ purpose: _purpose, moment, time, payment_due_offset, ...template }) => ({
    ...template, organization_id: organizationId, type: 'automated', moment: moment ?? null, time: time ?? null,
    payment_due_offset: payment_due_offset ?? null,
    past_schedule_behavior: moment?.type === 'check-in' ? 'send' : 'skip',
  }));
  const { rowCount } = await tx.query(
    `INSERT INTO api.email_templates (organization_id, type, trigger, moment, "time", payment_due_offset, status, past_schedule_behavior,
                                      subject, body, include_booking_details, include_booking_link, include_ical_data, include_product_image)
     SELECT organization_id, type, trigger, moment, "time", payment_due_offset, status, past_schedule_behavior, subject, body,
            include_booking_details, include_booking_link, include_ical_data, include_product_image
     FROM jsonb_populate_recordset(NULL::api.email_templates, $1::jsonb)`,
    [JSON.stringify(rows)]);
  return rowCount ?? rows.length;
}

/**
 * The guest's payment link: a Stripe Checkout page for the booking's next payment still to pay
 * (`POST /v1/payment-link`), to copy or to e-mail to the guest in their language. Without Stripe, or with nothing
 * to pay, the API's reason is shown.
 */
import { useState } from 'react';
import { Anchor, Button, CopyButton, Group, Modal, Stack, Text } from '@mantine/core';
import i18next from 'i18next';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '../common/ErrorAlert';
import { DASHBOARD_LANGUAGES } from '../i18n/languages';
import { useWorkspace } from '../shell/context';
import { sendMessage } from './message-actions';
import { paymentLink, type PaymentLink } from './payment-actions';
import type { BookingDetail } from './queries';
import { useAction } from '../common/use-action';

/** The guest's language among the dashboard's (their e-mail is written in it), else English. */
function guestLanguage(language: string | null | undefined) {
  const base = (language ?? '').slice(0, 2).toLowerCase();
  return DASHBOARD_LANGUAGES.find((known) => known === base) ?? 'en';
}

export function PaymentLinkButton({ detail, onSent }: { detail: BookingDetail; onSent: () => void }) {
  const { t } = useTranslation(['booking', 'common']);
  const { format, can } = useWorkspace();
  const [open, setOpen] = useState(false);
  const [link, setLink] = useState<PaymentLink | null>(null);
  const [mailedTo, setMailedTo] = useState<string | null>(null);
  const making = useAction(() => {});
  const mailing = useAction(onSent);
  const guest = detail.contacts?.find((contact) => contact.email) ?? null;
  const mayMail = guest !== null && can('messages', 'write');

  const make = () => making.run('link', async () => setLink(await paymentLink(detail.booking.id)));
  const mail = async () => {
    if (!link || !guest?.email) return;
    const inGuestLanguage = i18next.getFixedT(guestLanguage(guest.language ?? detail.booking.language), 'booking');
    const values = { reference: detail.booking.reference, amount: format.money(link.amount, link.currency), url: link.payment_url };
    const sent = await mailing.run('mail', () => sendMessage(detail.booking.id, {
      to_address: guest.email!, contact_id: guest.id,
      subject: inGuestLanguage('paymentLinkMail.subject', values), body: inGuestLanguage('paymentLinkMail.body', values),
    }));
    if (sent) setMailedTo(guest.email);
  };
  return (
    <>
      <Button size="sm" variant="default" onClick={() => { setOpen(true); setLink(null); setMailedTo(null); making.setError(null); }}>{t('payments.link')}</Button>
      <Modal opened={open} onClose={() => setOpen(false)} closeButtonProps={{ 'aria-label': t('common:close') }} title={t('payments.linkTitle')}>
        <Stack>
          <Text size="sm">{t('payments.linkExplain')}</Text>
          <ErrorAlert error={making.error} title={t('payments.linkFailed')} />
          <ErrorAlert error={mailing.error} title={t('payments.linkMailFailed')} />
          {link && (
            <Stack gap={4}>
              <Text size="sm">{t('payments.linkFor', { amount: format.money(link.amount, link.currency) })}</Text>
              <Anchor href={link.payment_url} target="_blank" rel="noreferrer" size="sm" style={{ wordBreak: 'break-all' }}>{link.payment_url}</Anchor>
            </Stack>
          )}
          {mailedTo && <Text size="sm" role="status">{t('payments.linkMailed', { to: mailedTo })}</Text>}
          {link && !guest && <Text size="sm" c="dimmed">{t('payments.linkNoGuest')}</Text>}
          <Group justify="flex-end">
            {!link && <Button onClick={make} loading={making.busy !== null}>{t('payments.linkMake')}</Button>}
            {link && (
              <CopyButton value={link.payment_url}>
                {({ copied, copy }) => <Button variant="default" onClick={copy}>{copied ? t('common:copied') : t('common:copy')}</Button>}
              </CopyButton>
            )}
            {link && mayMail && <Button onClick={mail} loading={mailing.busy !== null} disabled={mailedTo !== null}>{t('payments.linkMail')}</Button>}
          </Group>
        </Stack>
      </Modal>
    </>
  );
}

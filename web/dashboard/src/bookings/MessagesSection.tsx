/**
 * The booking's messages: to whom, or from the guest with what they wrote and **Reply** (the conversation in the
 * inbox); an e-mail sent (or failed) can be sent again.
 */
import { Anchor, Button, Stack, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '../common/ErrorAlert';
import { Link } from '../common/router';
import { threadPath } from '../inbox/threads';
import { useWorkspace } from '../shell/context';
import { resendMessage } from './message-actions';
import type { BookingDetail } from './queries';
import { Section } from './Section';
import { useAction } from '../common/use-action';

export function MessagesSection({ detail, onChanged }: { detail: BookingDetail; onChanged: () => void }) {
  const { t } = useTranslation('booking');
  const { format, can } = useWorkspace();
  const resend = useAction(onChanged);
  const mayWrite = can('messages', 'write');
  return (
    <Section title={t('messages.title')} shown={detail.messages !== null} empty={detail.messages?.length === 0}>
      <Stack gap="xs">
        <ErrorAlert error={resend.error} title={t('messages.resendFailed')} />
        <Table aria-label={t('messages.table')}>
          <Table.Tbody>
            {detail.messages?.map((message) => (
              <Table.Tr key={message.id}>
                <Table.Td>{format.moment(message.sent_at ?? message.created_at)}</Table.Td>
                <Table.Td>{message.direction === 'inbound'
                  ? (message.from_address ? t('messages.from', { address: message.from_address }) : t('messages.fromGuest'))
                  : t('messages.to', { address: message.to_address })}</Table.Td>
                <Table.Td>
                  {message.subject}
                  {/* What the guest wrote (e.g. why they ask to cancel): the host reads it here. */}
                  {message.direction === 'inbound' && message.body && <Text size="sm" c="dimmed" style={{ whiteSpace: 'pre-wrap' }}>{message.body}</Text>}
                </Table.Td>
                <Table.Td>{message.channel} · {t(`messageStatus.${message.status}`)}</Table.Td>
                <Table.Td>
                  {/* The answer is written in the inbox, beside the whole conversation. */}
                  {message.direction === 'inbound' && mayWrite && (
                    <Anchor component={Link} to={threadPath({ kind: 'booking', bookingId: detail.booking.id })} size="sm">{t('messages.reply')}</Anchor>
                  )}
                  {message.direction === 'outbound' && message.channel === 'email' && mayWrite && (message.status === 'sent' || message.status === 'delivered' || message.status === 'failed') && (
                    <Button size="xs" variant="default" aria-label={t('messages.resendNamed', { subject: message.subject })} loading={resend.busy === message.id}
                      onClick={() => resend.run(message.id, () => resendMessage(detail.booking.id, message))}>{t('messages.resend')}</Button>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Stack>
    </Section>
  );
}

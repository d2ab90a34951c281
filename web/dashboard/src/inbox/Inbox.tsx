/**
 * The inbox: guests' conversations, one per booking (and one per sender for mail that matched no booking), unread
 * ones first, then by their latest message. Each opens its thread (./Thread.tsx).
 */
import { useState } from 'react';
import { Badge, Button, Card, Group, Loader, Stack, Text, Title, UnstyledButton } from '@mantine/core';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '../common/ErrorAlert';
import { Link } from '../common/router';
import { useLoad } from '../common/use-load';
import { useWorkspace } from '../shell/context';
import { loadInbox, type BookingContext } from './queries';
import { excerpt, threadPath, type ThreadSummary } from './threads';

export function Inbox() {
  const { t } = useTranslation('inbox');
  const { can, locale } = useWorkspace();
  const [pages, setPages] = useState(1);
  const inbox = useLoad(() => loadInbox(pages, can, locale), [pages, can, locale]);

  return (
    <Stack>
      <Title order={2}>{t('title')}</Title>
      <ErrorAlert error={inbox.error} title={t('failed')} />
      {inbox.loading && !inbox.data && <Group><Loader size="sm" role="status" aria-label={t('loading')} /><Text>{t('loadingText')}</Text></Group>}
      {inbox.data?.threads.length === 0 && <Text c="dimmed">{t('empty')}</Text>}
      {inbox.data && inbox.data.threads.length > 0 && (
        <Stack gap="xs" component="ul" aria-label={t('conversations')} p={0} m={0} style={{ listStyle: 'none' }}>
          {inbox.data.threads.map((thread) => (
            <ThreadEntry key={threadPath(thread.key)} thread={thread}
              booking={thread.key.kind === 'booking' ? inbox.data!.bookings.get(thread.key.bookingId) : undefined} />
          ))}
        </Stack>
      )}
      {inbox.data?.more && (
        <Group><Button variant="default" onClick={() => setPages((value) => value + 1)} loading={inbox.loading}>{t('older')}</Button></Group>
      )}
    </Stack>
  );
}

/** Who the thread is with: the guest's name, else the booking's reference, else the sender's address. */
export function threadTitle(thread: Pick<ThreadSummary, 'key'>, booking: BookingContext | undefined, t: TFunction<'inbox'>): string {
  if (thread.key.kind === 'sender') return thread.key.address;
  return booking?.guest || (booking?.reference ? t('bookingReference', { reference: booking.reference }) : t('booking'));
}

function ThreadEntry({ thread, booking }: { thread: ThreadSummary; booking: BookingContext | undefined }) {
  const { t } = useTranslation('inbox');
  const { format } = useWorkspace();
  const unread = thread.unread > 0;
  const stay = booking?.startDate && booking.endDate ? `${format.date(booking.startDate)} – ${format.date(booking.endDate)}` : null;
  return (
    <li>
      <UnstyledButton component={Link} to={threadPath(thread.key)} w="100%" data-unread={unread || undefined}>
        <Card withBorder padding="sm" bg={unread ? 'blue.0' : undefined}>
          <Group justify="space-between" wrap="nowrap" align="flex-start">
            <Stack gap={2} style={{ minWidth: 0 }}>
              <Group gap="xs" wrap="wrap">
                <Text fw={unread ? 700 : 500}>{threadTitle(thread, booking, t)}</Text>
                {booking?.unit && <Text size="sm" c="dimmed">{booking.unit}</Text>}
                {stay && <Text size="sm" c="dimmed">{stay}</Text>}
              </Group>
              <Text size="sm" fw={unread ? 600 : 400} truncate="end">
                {thread.latest.direction === 'outbound' ? t('you', { text: excerpt(thread.latest) }) : excerpt(thread.latest)}
              </Text>
            </Stack>
            <Stack gap={4} align="flex-end" style={{ flexShrink: 0 }}>
              <Text size="xs" c="dimmed">{format.moment(thread.latest.created_at)}</Text>
              {unread && <Badge color="red" aria-label={t('unread', { count: thread.unread })}>{thread.unread}</Badge>}
            </Stack>
          </Group>
        </Card>
      </UnstyledButton>
    </li>
  );
}

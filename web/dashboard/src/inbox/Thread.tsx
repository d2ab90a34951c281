/**
 * One conversation: the guest's messages and the ones sent to them in time order, the stay beside it, and a reply
 * box. Opening it marks the guest's messages read; "Mark unread" undoes that for the newest one.
 */
import { useEffect, useState } from 'react';
import { Anchor, Badge, Button, Grid, Group, Loader, Paper, Stack, Text, Textarea, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { loadBooking } from '../bookings/queries';
import { ErrorAlert } from '../common/ErrorAlert';
import { Link, navigate } from '../common/router';
import { useLoad } from '../common/use-load';
import { useWorkspace } from '../shell/context';
import { inboxChanged } from './inbox-changes';
import { attachmentUrl, loadAttachments, loadConversation, markRead, markUnread, sendReply, type ConversationMessage, type MessageAttachment } from './queries';
import { StayCard } from './StayCard';
import { threadPath, type ThreadKey } from './threads';

export function Thread({ threadKey }: { threadKey: ThreadKey }) {
  const { t } = useTranslation('inbox');
  const { can } = useWorkspace();
  const threadId = threadPath(threadKey);
  const conversation = useLoad(() => loadConversation(threadKey), [threadId]);
  const bookingId = threadKey.kind === 'booking' ? threadKey.bookingId : null;
  const stay = useLoad(() => (bookingId && can('bookings') ? loadBooking(bookingId, can) : Promise.resolve(null)), [bookingId, can]);
  const [readError, setReadError] = useState<unknown>(null);
  const messages = conversation.data;
  const inboundIds = messages?.filter((message) => message.direction === 'inbound').map((message) => message.id) ?? [];
  const attachments = useLoad(() => (can('message_attachments') ? loadAttachments(inboundIds) : Promise.resolve(new Map<string, MessageAttachment[]>())),
    [inboundIds.join(','), can]);
  const unread = messages?.some((message) => message.direction === 'inbound' && message.read_at === null) ?? false;
  const mayWrite = can('messages', 'write');

  // Reading the thread reads the guest's messages (a member who may not write leaves them unread for the others).
  useEffect(() => {
    if (!unread || !mayWrite) return;
    markRead(threadKey, new Date()).then(inboxChanged, setReadError);
    // threadKey is a new object each render; threadId names it.
  }, [unread, mayWrite, threadId]);

  const answered = messages?.findLast((message) => message.direction === 'inbound');
  const guest = stay.data?.contacts?.map((contact) => [contact.first_name, contact.last_name].filter(Boolean).join(' ')).join(', ');
  const title = threadKey.kind === 'sender' ? threadKey.address : guest || (stay.data ? t('bookingReference', { reference: stay.data.booking.reference }) : t('thread.conversation'));

  return (
    <Stack>
      <Anchor component={Link} to="/inbox" size="sm">{t('thread.back')}</Anchor>
      <Group justify="space-between" wrap="wrap">
        <Title order={2}>{title}</Title>
        {answered && mayWrite && <MarkUnread message={answered} />}
      </Group>
      <ErrorAlert error={conversation.error} title={t('thread.failed')} />
      <ErrorAlert error={readError} title={t('thread.readFailed')} />
      <ErrorAlert error={attachments.error} title={t('thread.filesFailed')} />
      {conversation.loading && !messages && <Group><Loader size="sm" role="status" aria-label={t('thread.loading')} /><Text>{t('thread.loadingText')}</Text></Group>}
      {messages && (
        <Grid>
          <Grid.Col span={{ base: 12, md: 8 }}>
            <Stack>
              <Stack gap="sm" component="ol" aria-label={t('thread.messages')} p={0} m={0} style={{ listStyle: 'none' }}>
                {messages.map((message) => <MessageBubble key={message.id} message={message} files={attachments.data?.get(message.id) ?? []} />)}
              </Stack>
              {messages.length === 0 && <Text c="dimmed">{t('thread.noMessages')}</Text>}
              {answered && mayWrite && (answered.from_address !== null
                ? <ReplyBox answered={{ ...answered, from_address: answered.from_address }} onSent={conversation.reload} />
                : <Text size="sm" c="dimmed">{t('thread.noAddress')}</Text>)}
            </Stack>
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 4 }}>
            <ErrorAlert error={stay.error} title={t('thread.stayFailed')} />
            {stay.data && <StayCard detail={stay.data} />}
            {threadKey.kind === 'sender' && <Text size="sm" c="dimmed">{t('thread.noBooking')}</Text>}
          </Grid.Col>
        </Grid>
      )}
    </Stack>
  );
}

const STATUS_COLORS: Record<ConversationMessage['status'], string> = {
  queued: 'gray', sent: 'blue', delivered: 'green', failed: 'red', received: 'gray',
};

/** The guest's messages on the left, the ones sent to them on the right in another colour. */
function MessageBubble({ message, files }: { message: ConversationMessage; files: MessageAttachment[] }) {
  const { t } = useTranslation('inbox');
  const { format } = useWorkspace();
  const inbound = message.direction === 'inbound';
  const from = t('thread.from', { address: message.from_address ?? t('thread.theGuest') });
  return (
    <li style={{ display: 'flex', justifyContent: inbound ? 'flex-start' : 'flex-end' }} data-direction={message.direction}>
      <Paper withBorder p="sm" radius="md" maw="85%" bg={inbound ? 'gray.0' : 'blue.0'}
        aria-label={inbound ? from : t('thread.sentTo', { address: message.to_address })}>
        <Group justify="space-between" gap="md" wrap="wrap" mb={4} style={{ rowGap: 2 }}>
          <Text size="xs" fw={600}>{inbound ? from : t('thread.to', { address: message.to_address })}</Text>
          <Group gap={6}>
            {!inbound && <Badge size="xs" variant="light" color={STATUS_COLORS[message.status]} data-status={message.status}>{t(`thread.status.${message.status}`)}</Badge>}
            <Text size="xs" c="dimmed" component="time" dateTime={message.created_at}>{format.moment(message.created_at)}</Text>
          </Group>
        </Group>
        {message.subject && <Text size="sm" fw={500}>{message.subject}</Text>}
        <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>{message.body}</Text>
        {files.length > 0 && <Attachments files={files} />}
      </Paper>
    </li>
  );
}

/** 1 234 bytes as "1.2 KB" ("1,2 KB" in Dutch): enough to tell a scan from a photo. */
function useFileSize(): (bytes: number) => string {
  const { t } = useTranslation('inbox');
  const { locale } = useWorkspace();
  const tenths = new Intl.NumberFormat(locale, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
  return (bytes) => {
    if (bytes < 1000) return t('thread.bytes', { size: bytes });
    if (bytes < 1_000_000) return t('thread.kilobytes', { size: tenths.format(bytes / 1000) });
    return t('thread.megabytes', { size: tenths.format(bytes / 1_000_000) });
  };
}

/**
 * The files the guest sent with the message, as download links (the server sends them as downloads). A group, not a
 * list: the conversation's list items are its messages.
 */
function Attachments({ files }: { files: MessageAttachment[] }) {
  const { t } = useTranslation('inbox');
  const fileSize = useFileSize();
  return (
    <Stack gap={2} mt="xs" role="group" aria-label={t('thread.files')}>
      {files.map((file) => (
        <Text key={file.id} size="sm">
          <Anchor href={attachmentUrl(file)} download={file.filename} style={{ overflowWrap: 'anywhere' }}>{file.filename}</Anchor>
          <Text span size="xs" c="dimmed"> ({fileSize(file.bytes)})</Text>
        </Text>
      ))}
    </Stack>
  );
}

function MarkUnread({ message }: { message: ConversationMessage }) {
  const { t } = useTranslation('inbox');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const mark = async () => {
    setBusy(true);
    try {
      await markUnread(message);
      inboxChanged();
      navigate('/inbox');
    } catch (failure) {
      setError(failure);
      setBusy(false);
    }
  };
  return (
    <Stack gap={4}>
      <Button variant="default" onClick={mark} loading={busy}>{t('thread.markUnread')}</Button>
      <ErrorAlert error={error} title={t('thread.markUnreadFailed')} />
    </Stack>
  );
}

/** The answer to the guest's newest message, sent as an e-mail in the same thread. */
function ReplyBox({ answered, onSent }: { answered: ConversationMessage & { from_address: string }; onSent: () => void }) {
  const { t } = useTranslation('inbox');
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const send = async () => {
    if (!text.trim()) return;
    setBusy(true);
    setError(null);
    try {
      await sendReply(answered, text.trim());
      setText('');
      onSent();
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Stack gap="xs" component="form" aria-label={t('reply.name')} onSubmit={(event) => { event.preventDefault(); void send(); }}>
      <Textarea label={t('reply.label', { address: answered.from_address })} autosize minRows={3} maxRows={12} value={text}
        onChange={(event) => setText(event.currentTarget.value)}
        onKeyDown={(event) => { if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) { event.preventDefault(); void send(); } }}
        description={t('reply.description')} />
      <ErrorAlert error={error} title={t('reply.failed')} />
      <Group justify="flex-end"><Button type="submit" loading={busy} disabled={!text.trim()}>{t('reply.send')}</Button></Group>
    </Stack>
  );
}

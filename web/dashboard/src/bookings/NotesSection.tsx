/** Private notes on the stay (`calendar_event_notes`): the team reads and adds them; guests never see them. */
import { useState } from 'react';
import { Button, Group, Stack, Text, Textarea } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '../common/ErrorAlert';
import { useWorkspace } from '../shell/context';
import { addNote } from './note-actions';
import type { BookingDetail } from './queries';
import { Section } from './Section';
import { useAction } from '../common/use-action';

export function NotesSection({ detail, onChanged }: { detail: BookingDetail; onChanged: () => void }) {
  const { t } = useTranslation('booking');
  const { format, can, session } = useWorkspace();
  const [note, setNote] = useState('');
  const adding = useAction(onChanged);
  const event = detail.event;
  const add = async () => {
    if (event && await adding.run('add', () => addNote(event.id, note.trim()))) setNote('');
  };
  return (
    <Section title={t('notes.title')} shown={detail.notes !== null} empty={detail.notes?.length === 0}
      footer={event && can('calendar_event_notes', 'write') && (
        <Stack gap="xs" mt="sm">
          <ErrorAlert error={adding.error} title={t('notes.failed')} />
          <Textarea label={t('notes.label')} description={t('notes.explain')} placeholder={t('notes.placeholder')} value={note} autosize minRows={2}
            onChange={(change) => setNote(change.currentTarget.value)} maxLength={5000} />
          <Group justify="flex-end">
            <Button size="sm" onClick={add} loading={adding.busy !== null} disabled={note.trim() === ''}>{t('notes.add')}</Button>
          </Group>
        </Stack>
      )}>
      <Stack gap="xs">
        {detail.notes?.map((entry) => (
          <div key={entry.id}>
            <Text size="xs" c="dimmed">{format.moment(entry.created_at)}{entry.author_id === session.user.id ? ` · ${t('notes.byYou')}` : ''}</Text>
            <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>{entry.note}</Text>
          </div>
        ))}
      </Stack>
    </Section>
  );
}

/** A block (or a booking the member may not open): what it is, and removing a block made here. */
import { useState } from 'react';
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { database, rowsOf } from '../api/database';
import { ConfirmButton } from '../common/ConfirmButton';
import { ErrorAlert } from '../common/ErrorAlert';
import { useWorkspace } from '../shell/context';
import type { TimelineEvent } from './queries';

export function EventModal({ event, unit, onClose, onChanged }: { event: TimelineEvent; unit: string; onClose: () => void; onChanged: () => void }) {
  const { format, can } = useWorkspace();
  const { t } = useTranslation(['calendar', 'common']);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const imported = event.calendar_id !== null;
  const removable = event.type === 'blocked period' && !imported && can('calendar_events', 'write');

  const remove = async () => {
    setBusy(true);
    try {
      rowsOf(await database.from('calendar_events').delete().eq('id', event.id));
      onChanged();
    } catch (failure) {
      setError(failure);
      setBusy(false);
    }
  };

  return (
    <Modal opened onClose={onClose} title={t(event.type === 'booking' ? 'event.booking' : imported ? 'event.importedBlock' : 'event.block')}>
      <Stack>
        <ErrorAlert error={error} title={t('event.removeFailed')} />
        <Text><b>{unit}</b></Text>
        {event.title && <Text>{event.title}</Text>}
        <Text>{t('event.dates', { start: format.date(event.start_date), end: format.date(event.end_date), status: t(`statuses.${event.status}`) })}</Text>
        {imported && <Text size="sm" c="dimmed">{t('event.importedFrom', { feed: event.external_calendars?.name ?? t('event.anIcalFeed') })}</Text>}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>{t('common:close')}</Button>
          {removable && <ConfirmButton question={t('event.removeQuestion')} onConfirm={remove} loading={busy}>{t('event.remove')}</ConfirmButton>}
        </Group>
      </Stack>
    </Modal>
  );
}

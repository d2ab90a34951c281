/** A block (or a booking the member may not open): what it is, and removing a block made here. */
import { useState } from 'react';
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { database, rowsOf } from '../api/database';
import { ConfirmButton } from '../common/ConfirmButton';
import { ErrorAlert } from '../common/ErrorAlert';
import { useWorkspace } from '../shell/context';
import type { TimelineEvent } from './queries';

export function EventModal({ event, unit, onClose, onChanged }: { event: TimelineEvent; unit: string; onClose: () => void; onChanged: () => void }) {
  const { format, can } = useWorkspace();
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
    <Modal opened onClose={onClose} title={event.type === 'booking' ? 'Booking' : imported ? 'Imported block' : 'Block'}>
      <Stack>
        <ErrorAlert error={error} title="The block was not removed" />
        <Text><b>{unit}</b></Text>
        {event.title && <Text>{event.title}</Text>}
        <Text>{format.date(event.start_date)} – {format.date(event.end_date)} ({event.status.toLowerCase()})</Text>
        {imported && <Text size="sm" c="dimmed">Imported from {event.external_calendars?.name ?? 'an iCal feed'}: change it in that calendar; the next sync brings it here.</Text>}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>Close</Button>
          {removable && <ConfirmButton question="Remove this block? Its days become bookable." onConfirm={remove} loading={busy}>Remove block</ConfirmButton>}
        </Group>
      </Stack>
    </Modal>
  );
}

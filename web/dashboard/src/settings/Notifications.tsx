/**
 * My notifications: which e-mails the signed-in member gets about bookings (a new booking, a request to confirm, a
 * cancellation, a guest asking to cancel, a guest's e-mail reply). Every member chooses their own; until they do, owners and admins get all
 * of them and other roles none.
 */
import { useEffect, useState } from 'react';
import { Button, Checkbox, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { loadMyNotifications, saveMyNotifications, type MyNotifications } from '../api/notifications';
import { ErrorAlert } from '../common/ErrorAlert';
import { useLoad } from '../common/use-load';

const LABELS: Record<string, string> = {
  'booking.created': 'A new booking',
  'booking.requested': 'A booking request to confirm or decline',
  'booking.cancelled': 'A cancelled booking',
  'booking.cancellation_requested': 'A guest asks to cancel',
  'messages.received': 'A guest writes (an e-mail reply)',
};

export function Notifications() {
  const loaded = useLoad(loadMyNotifications, []);
  const [saved, setSaved] = useState<MyNotifications | null>(null);
  const [chosen, setChosen] = useState<string[]>([]);
  const [error, setError] = useState<unknown>(null);
  const [status, setStatus] = useState<'idle' | 'saving' | 'saved'>('idle');
  const current = saved ?? loaded.data;
  useEffect(() => { if (current) setChosen(current.notify); }, [current]);

  const save = async (notify: string[] | null) => {
    setError(null);
    setStatus('saving');
    try {
      setSaved(await saveMyNotifications(notify));
      setStatus('saved');
    } catch (failure) {
      setError(failure);
      setStatus('idle');
    }
  };

  return (
    <Stack maw={560}>
      <Title order={2}>My notifications</Title>
      <Text size="sm">E-mails you get about bookings, at your member e-mail address, as long as your permissions let you read bookings and their guests. Until you choose, owners and admins get all of them and other roles none.</Text>
      <ErrorAlert error={loaded.error ?? error} title="Notifications" />
      {loaded.loading && !current && <Loader size="sm" role="status" aria-label="Loading notifications" />}
      {current && (
        <>
          <Checkbox.Group label="E-mail me about" value={chosen} onChange={(value) => { setChosen(value); setStatus('idle'); }}>
            <Stack gap="xs" mt="xs">
              {current.available.map((name) => <Checkbox key={name} value={name} label={LABELS[name] ?? name} />)}
            </Stack>
          </Checkbox.Group>
          <Text size="sm" c="dimmed">{current.chosen ? 'You chose these.' : 'These are your role\'s default.'}</Text>
          <Group>
            <Button onClick={() => save(chosen)} loading={status === 'saving'}>Save</Button>
            {current.chosen && <Button variant="default" onClick={() => save(null)}>Use my role's default</Button>}
            {status === 'saved' && <Text size="sm" role="status">Saved.</Text>}
          </Group>
        </>
      )}
    </Stack>
  );
}

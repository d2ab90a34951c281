/**
 * My notifications: which e-mails the signed-in member gets about bookings (a new booking, a request to confirm, a
 * cancellation, a guest asking to cancel, a guest's e-mail reply). Every member chooses their own; until they do, owners and admins get all
 * of them and other roles none.
 */
import { useEffect, useState } from 'react';
import { Button, Checkbox, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { HOST_NOTIFICATIONS, type HostNotification } from '../../../../src/automations/host-notification-labels.js';
import { loadMyNotifications, saveMyNotifications, type MyNotifications } from '../api/notifications';
import { ErrorAlert } from '../common/ErrorAlert';
import { useLoad } from '../common/use-load';

/** A notification of the server's list the dashboard has a name for (the server may know one it does not yet). */
const isNamed = (name: string): name is HostNotification => (HOST_NOTIFICATIONS as readonly string[]).includes(name);

export function Notifications() {
  const { t } = useTranslation(['settings', 'common']);
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
      <Title order={2}>{t('notifications.title')}</Title>
      <Text size="sm">{t('notifications.intro')}</Text>
      <ErrorAlert error={loaded.error ?? error} title={t('notifications.title')} />
      {loaded.loading && !current && <Loader size="sm" role="status" aria-label={t('notifications.loading')} />}
      {current && (
        <>
          <Checkbox.Group label={t('notifications.emailMeAbout')} value={chosen} onChange={(value) => { setChosen(value); setStatus('idle'); }}>
            <Stack gap="xs" mt="xs">
              {current.available.map((name) => <Checkbox key={name} value={name} label={isNamed(name) ? t(`notifications.kind.${name}`) : name} />)}
            </Stack>
          </Checkbox.Group>
          <Text size="sm" c="dimmed">{current.chosen ? t('notifications.youChose') : t('notifications.roleDefault')}</Text>
          <Group>
            <Button onClick={() => save(chosen)} loading={status === 'saving'}>{t('common:save')}</Button>
            {current.chosen && <Button variant="default" onClick={() => save(null)}>{t('notifications.useDefault')}</Button>}
            {status === 'saved' && <Text size="sm" role="status">{t('notifications.saved')}</Text>}
          </Group>
        </>
      )}
    </Stack>
  );
}

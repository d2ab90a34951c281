/**
 * The widget's publishable keys: each with its name, when it was made and whether it is revoked; **Create key** and
 * **Revoke** (the key stops working on every server within seconds; websites that embed it show an error).
 */
import { useState, type FormEvent } from 'react';
import { Badge, Button, Card, Code, Group, Modal, Stack, Table, Text, TextInput, Title, VisuallyHidden } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '../common/ErrorAlert';
import type { Loaded } from '../common/use-load';
import { useWorkspace } from '../shell/context';
import { mayManageWidgets } from './permissions';
import { createKey, revokeKey, type PublishableKey } from './queries';

export function PublishableKeys({ widgetId, keys }: { widgetId: string; keys: Loaded<PublishableKey[]> }) {
  const { t } = useTranslation('widgets');
  const { can, format } = useWorkspace();
  const [revoking, setRevoking] = useState<PublishableKey | null>(null);
  const mayWrite = mayManageWidgets(can);
  return (
    <Card withBorder component="section" aria-label={t('keys.title')}>
      <Stack gap="sm">
        <Title order={3} size="h4">{t('keys.title')}</Title>
        <Text size="sm">{t('keys.intro')}</Text>
        <ErrorAlert error={keys.error} title={t('keys.loadFailed')} />
        {keys.data && keys.data.length > 0 && (
          <Table.ScrollContainer minWidth={560}>
            <Table aria-label={t('keys.title')}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('keys.name')}</Table.Th><Table.Th>{t('keys.key')}</Table.Th><Table.Th>{t('keys.created')}</Table.Th>
                  <Table.Th>{t('keys.state')}</Table.Th><Table.Th><VisuallyHidden>{t('keys.actions')}</VisuallyHidden></Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {keys.data.map((key) => (
                  <Table.Tr key={key.id}>
                    <Table.Td>{key.name || t('keys.unnamed')}</Table.Td>
                    <Table.Td><Code>{key.key}</Code></Table.Td>
                    <Table.Td>{format.moment(key.created_at)}</Table.Td>
                    <Table.Td>
                      {key.revoked_at
                        ? <Badge color="#495057">{t('keys.revoked', { when: format.moment(key.revoked_at) })}</Badge>
                        : <Badge color="#1c6b48">{t('keys.active')}</Badge>}
                    </Table.Td>
                    <Table.Td>
                      {mayWrite && !key.revoked_at && (
                        <Button size="xs" color="red" variant="outline" onClick={() => setRevoking(key)}
                          aria-label={t('keys.revokeLabel', { key: key.key })}>{t('keys.revoke')}</Button>
                      )}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
        {keys.data?.length === 0 && <Text size="sm" c="dimmed">{t('keys.none')}</Text>}
        {mayWrite && <NewKeyForm widgetId={widgetId} onCreated={keys.reload} />}
      </Stack>
      {revoking && <RevokeModal publishableKey={revoking} onClose={() => setRevoking(null)} onRevoked={() => { setRevoking(null); keys.reload(); }} />}
    </Card>
  );
}

function NewKeyForm({ widgetId, onCreated }: { widgetId: string; onCreated: () => void }) {
  const { t } = useTranslation('widgets');
  const [name, setName] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await createKey(widgetId, name);
      setName('');
      onCreated();
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Stack component="form" onSubmit={submit} gap="xs" aria-label={t('keys.create')}>
      <ErrorAlert error={error} title={t('keys.createFailed')} />
      <Group align="flex-end">
        <TextInput label={t('keys.newName')} placeholder={t('keys.newNamePlaceholder')} value={name} onChange={(event) => setName(event.currentTarget.value)} />
        <Button type="submit" variant="outline" loading={busy}>{t('keys.create')}</Button>
      </Group>
    </Stack>
  );
}

function RevokeModal({ publishableKey, onClose, onRevoked }: { publishableKey: PublishableKey; onClose: () => void; onRevoked: () => void }) {
  const { t } = useTranslation(['widgets', 'common']);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const revoke = async () => {
    setBusy(true);
    try {
      await revokeKey(publishableKey.id);
      onRevoked();
    } catch (failure) {
      setError(failure);
      setBusy(false);
    }
  };
  return (
    <Modal opened onClose={onClose} title={t('keys.revokeQuestion', { name: publishableKey.name || publishableKey.key })}
      closeButtonProps={{ 'aria-label': t('common:close') }}>
      <Stack>
        <ErrorAlert error={error} title={t('keys.revokeFailed')} />
        <Text size="sm">{t('keys.revokeExplanation')}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>{t('keys.keep')}</Button>
          <Button color="red" onClick={revoke} loading={busy}>{t('keys.revokeConfirm')}</Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/**
 * API keys of the organization: create one with scopes and an expiry (its secret is shown once, with a copy
 * button), see when each was last used, revoke one (effective on every server within seconds).
 */
import { useState, type FormEvent } from 'react';
import { Alert, Badge, Button, Code, CopyButton, Group, Loader, Modal, Paper, Stack, Table, TagsInput, Text, TextInput, Title, VisuallyHidden } from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import { Trans, useTranslation } from 'react-i18next';
import { createKey, listKeys, revokeKey, type ApiKey } from '../api/keys';
import { addDays } from '../common/dates';
import { ErrorAlert } from '../common/ErrorAlert';
import { useLoad } from '../common/use-load';
import { useWorkspace } from '../shell/context';
import { useResourceName } from './resource-names';

const COMMON_RESOURCES = ['bookings', 'calendar_events', 'products', 'product_configurations', 'price_calendar_entries', 'contacts', 'coupons', 'payments', 'webhooks'] as const;
// reports:read reads the report views (docs/reports.md): figures for an accountant or an owner, no guest rows.
const SCOPE_SUGGESTIONS = ['read', 'write', ...COMMON_RESOURCES.flatMap((resource) => [`${resource}:read`, `${resource}:write`]), 'reports:read'];

const COLUMNS = ['name', 'keyId', 'scopes', 'created', 'expires', 'lastUsed', 'state'] as const;

const STATE_COLORS = { revoked: '#495057', expired: '#9c3d00', active: '#1c6b48' } as const;

function keyState(key: ApiKey): keyof typeof STATE_COLORS {
  if (key.revoked_at) return 'revoked';
  if (key.expires_at && Date.parse(key.expires_at) <= Date.now()) return 'expired';
  return 'active';
}

/**
 * What a scope lets a key do, in the reader's words. The scope itself (`bookings:read`) is the API's word, typed and
 * shown as it is stored; this says it beside it.
 */
function useScopeMeaning(): (scope: string) => string {
  const { t } = useTranslation('settings');
  const resourceName = useResourceName();
  return (scope) => {
    if (scope === 'read' || scope === 'write') return t(`apiKeys.scope.${scope}`);
    const [resource = '', access] = scope.split(':');
    const name = resourceName(resource);
    return access === 'write' ? t('apiKeys.scope.resourceWrite', { resource: name }) : t('apiKeys.scope.resourceRead', { resource: name });
  };
}

export function ApiKeys() {
  const { can, format } = useWorkspace();
  const keys = useLoad(listKeys, []);
  const [created, setCreated] = useState<(ApiKey & { api_key: string }) | null>(null);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  const mayWrite = can('api_keys', 'write');
  const { t } = useTranslation(['settings', 'common']);
  const scopeMeaning = useScopeMeaning();

  return (
    <Stack>
      <Title order={2}>{t('apiKeys.title')}</Title>
      <Text size="sm"><Trans t={t} i18nKey="apiKeys.intro" components={{ code: <Code /> }} /></Text>
      {mayWrite && <NewKeyForm onCreated={(key) => { setCreated(key); keys.reload(); }} />}
      {created && (
        <Alert color="green" title={t('apiKeys.created', { name: created.name })} role="status" withCloseButton onClose={() => setCreated(null)} closeButtonLabel={t('apiKeys.hideKey')}>
          <Stack gap="xs">
            <Text size="sm">{t('apiKeys.copyNow')}</Text>
            <Group wrap="nowrap" gap="xs">
              <Code block style={{ wordBreak: 'break-all', flex: 1 }} data-testid="new-api-key">{created.api_key}</Code>
              <CopyButton value={created.api_key}>
                {({ copied, copy }) => <Button onClick={copy} variant={copied ? 'filled' : 'default'}>{copied ? t('common:copied') : t('common:copy')}</Button>}
              </CopyButton>
            </Group>
          </Stack>
        </Alert>
      )}
      <ErrorAlert error={keys.error} title={t('apiKeys.loadFailed')} />
      {keys.loading && !keys.data && <Group><Loader size="sm" role="status" aria-label={t('apiKeys.loading')} /><Text>{t('apiKeys.loadingText')}</Text></Group>}
      {keys.data && (
        <Table.ScrollContainer minWidth={720}>
          <Table aria-label={t('apiKeys.title')}>
            <Table.Thead>
              <Table.Tr>
                {COLUMNS.map((column) => <Table.Th key={column}>{t(`apiKeys.column.${column}`)}</Table.Th>)}
                <Table.Th><VisuallyHidden>{t('apiKeys.column.actions')}</VisuallyHidden></Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {keys.data.map((key) => {
                const state = keyState(key);
                return (
                  <Table.Tr key={key.id} data-key-id={key.key_id}>
                    <Table.Td>{key.name}</Table.Td>
                    <Table.Td><Code>{key.key_id}</Code></Table.Td>
                    <Table.Td><Group gap={4}>{key.scopes.map((scope) => <Badge key={scope} variant="outline" color="dark" tt="none" title={scopeMeaning(scope)}>{scope}</Badge>)}</Group></Table.Td>
                    <Table.Td>{format.moment(key.created_at)}</Table.Td>
                    <Table.Td>{key.expires_at ? format.moment(key.expires_at) : t('apiKeys.never')}</Table.Td>
                    <Table.Td>{key.last_used_at ? format.moment(key.last_used_at) : t('apiKeys.never')}</Table.Td>
                    <Table.Td><Badge color={STATE_COLORS[state]} data-state={state}>{t(`apiKeys.state.${state}`)}</Badge></Table.Td>
                    <Table.Td>{mayWrite && !key.revoked_at && <Button size="xs" color="red" variant="outline" onClick={() => setRevoking(key)} aria-label={t('apiKeys.revokeNamed', { name: key.name, keyId: key.key_id })}>{t('apiKeys.revoke')}</Button>}</Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {keys.data?.length === 0 && <Text c="dimmed">{t('apiKeys.none')}</Text>}
      {revoking && <RevokeModal apiKey={revoking} onClose={() => setRevoking(null)} onRevoked={() => { setRevoking(null); keys.reload(); }} />}
    </Stack>
  );
}

function NewKeyForm({ onCreated }: { onCreated: (key: ApiKey & { api_key: string }) => void }) {
  const { format } = useWorkspace();
  const { t } = useTranslation('settings');
  const scopeMeaning = useScopeMeaning();
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<string[]>(['read']);
  const [expires, setExpires] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      onCreated(await createKey({ name, scopes, expires_at: expires }));
      setName('');
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Paper withBorder p="md" component="form" onSubmit={submit} aria-label={t('apiKeys.form')}>
      <Stack gap="sm">
        <Title order={3} size="h4">{t('apiKeys.formTitle')}</Title>
        <ErrorAlert error={error} title={t('apiKeys.createFailed')} />
        <Group align="flex-end" wrap="wrap">
          <TextInput label={t('apiKeys.name')} required value={name} onChange={(event) => setName(event.currentTarget.value)} placeholder={t('apiKeys.namePlaceholder')} />
          <TagsInput label={t('apiKeys.scopes')} required value={scopes} onChange={setScopes} data={SCOPE_SUGGESTIONS} miw={260}
            description={t('apiKeys.scopesHelp')} clearable renderOption={({ option }) => (
              <Stack gap={0}><Text size="sm" ff="monospace">{option.value}</Text><Text size="xs" c="dimmed">{scopeMeaning(option.value)}</Text></Stack>
            )} />
          <DatePickerInput label={t('apiKeys.expires')} placeholder={t('apiKeys.expiresNever')} clearable value={expires} onChange={(value) => setExpires(value as string | null)}
            minDate={addDays(format.today(), 1)} miw={160} />
          <Button type="submit" loading={busy}>{t('apiKeys.create')}</Button>
        </Group>
      </Stack>
    </Paper>
  );
}

function RevokeModal({ apiKey, onClose, onRevoked }: { apiKey: ApiKey; onClose: () => void; onRevoked: () => void }) {
  const { t } = useTranslation('settings');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const revoke = async () => {
    setBusy(true);
    try {
      await revokeKey(apiKey.id);
      onRevoked();
    } catch (failure) {
      setError(failure);
      setBusy(false);
    }
  };
  return (
    <Modal opened onClose={onClose} title={t('apiKeys.revokeTitle', { name: apiKey.name })}>
      <Stack>
        <ErrorAlert error={error} title={t('apiKeys.revokeFailed')} />
        <Text size="sm">{t('apiKeys.revokeText')}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>{t('apiKeys.keep')}</Button>
          <Button color="red" onClick={revoke} loading={busy}>{t('apiKeys.revokeKey')}</Button>
        </Group>
      </Stack>
    </Modal>
  );
}

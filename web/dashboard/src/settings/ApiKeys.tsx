/**
 * API keys of the organization: create one with scopes and an expiry (its secret is shown once, with a copy
 * button), see when each was last used, revoke one (effective on every server within seconds).
 */
import { useState, type FormEvent } from 'react';
import { Alert, Badge, Button, Code, CopyButton, Group, Loader, Modal, Paper, Stack, Table, TagsInput, Text, TextInput, Title, VisuallyHidden } from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import { createKey, listKeys, revokeKey, type ApiKey } from '../api/keys';
import { addDays } from '../common/dates';
import { ErrorAlert } from '../common/ErrorAlert';
import { useLoad } from '../common/use-load';
import { useWorkspace } from '../shell/context';

const COMMON_RESOURCES = ['bookings', 'calendar_events', 'products', 'product_configurations', 'price_calendar_entries', 'contacts', 'coupons', 'payments', 'webhooks'];
// reports:read reads the report views (docs/reports.md): figures for an accountant or an owner, no guest rows.
const SCOPE_SUGGESTIONS = ['read', 'write', ...COMMON_RESOURCES.flatMap((resource) => [`${resource}:read`, `${resource}:write`]), 'reports:read'];

function keyState(key: ApiKey): { label: string; color: string } {
  if (key.revoked_at) return { label: 'revoked', color: '#495057' };
  if (key.expires_at && Date.parse(key.expires_at) <= Date.now()) return { label: 'expired', color: '#9c3d00' };
  return { label: 'active', color: '#1c6b48' };
}

export function ApiKeys() {
  const { can, format } = useWorkspace();
  const keys = useLoad(listKeys, []);
  const [created, setCreated] = useState<(ApiKey & { api_key: string }) | null>(null);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  const mayWrite = can('api_keys', 'write');

  return (
    <Stack>
      <Title order={2}>API keys</Title>
      <Text size="sm">Integrations (a booking website, a channel manager, scripts) use a key in the <Code>Authorization: Bearer …</Code> header. A key can do only what its scopes allow.</Text>
      {mayWrite && <NewKeyForm onCreated={(key) => { setCreated(key); keys.reload(); }} />}
      {created && (
        <Alert color="green" title={`Key "${created.name}" created`} role="status" withCloseButton onClose={() => setCreated(null)} closeButtonLabel="Hide the key">
          <Stack gap="xs">
            <Text size="sm">Copy it now: it is shown only once and cannot be recovered. Create a new key if it is lost.</Text>
            <Group wrap="nowrap" gap="xs">
              <Code block style={{ wordBreak: 'break-all', flex: 1 }} data-testid="new-api-key">{created.api_key}</Code>
              <CopyButton value={created.api_key}>
                {({ copied, copy }) => <Button onClick={copy} variant={copied ? 'filled' : 'default'}>{copied ? 'Copied' : 'Copy'}</Button>}
              </CopyButton>
            </Group>
          </Stack>
        </Alert>
      )}
      <ErrorAlert error={keys.error} title="The keys could not be loaded" />
      {keys.loading && !keys.data && <Group><Loader size="sm" role="status" aria-label="Loading keys" /><Text>Loading keys…</Text></Group>}
      {keys.data && (
        <Table.ScrollContainer minWidth={720}>
          <Table aria-label="API keys">
            <Table.Thead>
              <Table.Tr><Table.Th>Name</Table.Th><Table.Th>Key id</Table.Th><Table.Th>Scopes</Table.Th><Table.Th>Created</Table.Th><Table.Th>Expires</Table.Th><Table.Th>Last used</Table.Th><Table.Th>State</Table.Th><Table.Th><VisuallyHidden>Actions</VisuallyHidden></Table.Th></Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {keys.data.map((key) => {
                const state = keyState(key);
                return (
                  <Table.Tr key={key.id} data-key-id={key.key_id}>
                    <Table.Td>{key.name}</Table.Td>
                    <Table.Td><Code>{key.key_id}</Code></Table.Td>
                    <Table.Td><Group gap={4}>{key.scopes.map((scope) => <Badge key={scope} variant="outline" color="dark" tt="none">{scope}</Badge>)}</Group></Table.Td>
                    <Table.Td>{format.moment(key.created_at)}</Table.Td>
                    <Table.Td>{key.expires_at ? format.moment(key.expires_at) : 'never'}</Table.Td>
                    <Table.Td>{key.last_used_at ? format.moment(key.last_used_at) : 'never'}</Table.Td>
                    <Table.Td><Badge color={state.color} data-state={state.label}>{state.label}</Badge></Table.Td>
                    <Table.Td>{mayWrite && !key.revoked_at && <Button size="xs" color="red" variant="outline" onClick={() => setRevoking(key)} aria-label={`Revoke ${key.name} (${key.key_id})`}>Revoke</Button>}</Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {keys.data?.length === 0 && <Text c="dimmed">No keys yet.</Text>}
      {revoking && <RevokeModal apiKey={revoking} onClose={() => setRevoking(null)} onRevoked={() => { setRevoking(null); keys.reload(); }} />}
    </Stack>
  );
}

function NewKeyForm({ onCreated }: { onCreated: (key: ApiKey & { api_key: string }) => void }) {
  const { format } = useWorkspace();
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
    <Paper withBorder p="md" component="form" onSubmit={submit} aria-label="Create an API key">
      <Stack gap="sm">
        <Title order={3} size="h4">Create a key</Title>
        <ErrorAlert error={error} title="The key was not created" />
        <Group align="flex-end" wrap="wrap">
          <TextInput label="Name" required value={name} onChange={(event) => setName(event.currentTarget.value)} placeholder="e.g. Website" />
          <TagsInput label="Scopes" required value={scopes} onChange={setScopes} data={SCOPE_SUGGESTIONS} miw={260}
            description="read, write, or <resource>:read / <resource>:write" clearable />
          <DatePickerInput label="Expires" placeholder="Never" clearable value={expires} onChange={(value) => setExpires(value as string | null)}
            minDate={addDays(format.today(), 1)} miw={160} />
          <Button type="submit" loading={busy}>Create key</Button>
        </Group>
      </Stack>
    </Paper>
  );
}

function RevokeModal({ apiKey, onClose, onRevoked }: { apiKey: ApiKey; onClose: () => void; onRevoked: () => void }) {
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
    <Modal opened onClose={onClose} title={`Revoke "${apiKey.name}"?`}>
      <Stack>
        <ErrorAlert error={error} title="The key was not revoked" />
        <Text size="sm">Requests with this key are refused within two seconds on every server. This cannot be undone.</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>Keep it</Button>
          <Button color="red" onClick={revoke} loading={busy}>Revoke key</Button>
        </Group>
      </Stack>
    </Modal>
  );
}

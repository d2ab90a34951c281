/**
 * Webhooks: the organization's endpoints, a new one (its signing secret shown once), a test message, and each
 * webhook's delivery log with redelivery of the notifications chosen.
 */
import { useState, type FormEvent } from 'react';
import { Alert, Badge, Button, Checkbox, Code, CopyButton, Group, Loader, MultiSelect, Paper, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { database, rowsOf, type Row } from '../api/database';
import { requestJson } from '../api/http';
import { ErrorAlert } from '../common/ErrorAlert';
import { useLoad } from '../common/use-load';
import { useWorkspace } from '../shell/context';
import { loadWebhookEvents, type WebhookEvent, type WebhookEventType } from '../api/webhook-events';

const STATUS_COLORS = { pending: '#1864ab', sent: '#1c6b48', error: '#a61e1e' } as const;

export function Webhooks() {
  const { can } = useWorkspace();
  const webhooks = useLoad(async () => rowsOf(await database.from('webhooks').select('id,endpoint,events,description,disabled_at').order('created_at')), []);
  const [secret, setSecret] = useState<string | null>(null);
  const [open, setOpen] = useState<string | null>(null);

  return (
    <Stack>
      <Title order={2}>Webhooks</Title>
      <Text size="sm">Staykit sends a signed POST to each endpoint when a subscribed event happens, and retries for a day when it fails.</Text>
      {can('webhooks', 'write') && <NewWebhook onCreated={(created) => { setSecret(created); webhooks.reload(); }} />}
      {secret && (
        <Alert color="green" title="Webhook created" withCloseButton onClose={() => setSecret(null)} closeButtonLabel="Hide the secret" role="status">
          <Text size="sm">Its signing secret, shown only now: verify every message with it (Standard Webhooks).</Text>
          <Group wrap="nowrap" gap="xs" mt="xs">
            <Code block style={{ wordBreak: 'break-all', flex: 1 }}>{secret}</Code>
            <CopyButton value={secret}>{({ copied, copy }) => <Button variant="default" onClick={copy}>{copied ? 'Copied' : 'Copy'}</Button>}</CopyButton>
          </Group>
        </Alert>
      )}
      <ErrorAlert error={webhooks.error} title="The webhooks could not be loaded" />
      {webhooks.loading && !webhooks.data && <Loader size="sm" role="status" aria-label="Loading webhooks" />}
      {webhooks.data?.length === 0 && <Text c="dimmed">No webhooks yet.</Text>}
      {webhooks.data?.map((webhook) => (
        <Paper withBorder p="md" key={webhook.id} component="section" aria-label={`Webhook ${webhook.endpoint}`}>
          <Group justify="space-between" wrap="wrap">
            <Stack gap={2}>
              <Text fw={600} style={{ wordBreak: 'break-all' }}>{webhook.endpoint}</Text>
              <Text size="sm" c="dimmed">{webhook.description || 'No description'} · {webhook.events.join(', ')}</Text>
              {webhook.disabled_at && <Text size="sm" c="red.9">Disabled: the endpoint answered 410 Gone.</Text>}
            </Stack>
            <Group gap="xs">
              {can('webhooks', 'write') && <TestButton webhookId={webhook.id} />}
              <Button variant="default" onClick={() => setOpen(open === webhook.id ? null : webhook.id)} aria-expanded={open === webhook.id}>
                {open === webhook.id ? 'Hide deliveries' : 'Deliveries'}
              </Button>
            </Group>
          </Group>
          {open === webhook.id && <Deliveries webhookId={webhook.id} />}
        </Paper>
      ))}
    </Stack>
  );
}

/** The catalogue as MultiSelect groups, one per resource; an event whose read scopes the member lacks is disabled. */
interface EventOption {
  value: WebhookEvent;
  label: string;
  disabled: boolean;
}

function eventOptions(catalogue: WebhookEventType[]): { group: string; items: EventOption[] }[] {
  const groups = new Map<string, EventOption[]>();
  for (const event of catalogue) {
    const items = groups.get(event.resource) ?? [];
    items.push({ value: event.name, label: event.name, disabled: !event.allowed });
    groups.set(event.resource, items);
  }
  return [
    { group: 'All', items: [{ value: '*', label: '* (every event)', disabled: !catalogue.every((event) => event.allowed) }] },
    ...[...groups].map(([group, items]) => ({ group, items })),
  ];
}

function NewWebhook({ onCreated }: { onCreated: (secret: string) => void }) {
  const catalogue = useLoad(loadWebhookEvents, []);
  const descriptions = new Map((catalogue.data ?? []).map((event) => [event.name, event]));
  const [endpoint, setEndpoint] = useState('');
  const [events, setEvents] = useState<WebhookEvent[]>(['bookings.created']);
  const [description, setDescription] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      // `select=*`: the secret is readable only in this answer (naming the column alone is refused), so the generated
      // row, what a key may read, does not have it.
      const created = rowsOf(await database.from('webhooks').insert({ endpoint, events, description, source: 'admin' }).select()
        .returns<(Row<'webhooks'> & { signing_secret: string })[]>().single());
      setEndpoint('');
      onCreated(created.signing_secret);
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Paper withBorder p="md" component="form" onSubmit={submit} aria-label="Add a webhook">
      <Stack gap="sm">
        <Title order={3} size="h4">Add a webhook</Title>
        <ErrorAlert error={error} title="The webhook was not added" />
        <Group align="flex-end" wrap="wrap">
          <TextInput label="Endpoint" type="url" required placeholder="https://example.com/hooks/staykit" value={endpoint} onChange={(e) => setEndpoint(e.currentTarget.value)} miw={280} />
          <MultiSelect label="Events" required data={eventOptions(catalogue.data ?? [])} value={events} onChange={setEvents} searchable miw={260}
            renderOption={({ option }) => {
              const event = descriptions.get(option.value);
              return (
                <Stack gap={0}>
                  <Text size="sm">{option.label}</Text>
                  {event && <Text size="xs" c="dimmed">{event.description}{event.allowed ? '' : ` Needs ${event.read_scopes.map((table) => `${table}:read`).join(', ')}.`}</Text>}
                </Stack>
              );
            }} />
          <TextInput label="Description" value={description} onChange={(e) => setDescription(e.currentTarget.value)} />
          <Button type="submit" loading={busy}>Add webhook</Button>
        </Group>
      </Stack>
    </Paper>
  );
}

function TestButton({ webhookId }: { webhookId: string }) {
  const [result, setResult] = useState<{ ok: boolean; status: number | null; response: string | null } | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const test = async () => {
    setBusy(true);
    setError(null);
    try {
      setResult(await requestJson('POST', '/v1/webhook-test', { webhook_id: webhookId }));
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Stack gap={4}>
      <Button variant="default" onClick={test} loading={busy}>Send a test</Button>
      <ErrorAlert error={error} title="The test was not sent" />
      {result && <Text size="sm" role="status">{result.ok ? 'Delivered' : 'Failed'}{result.status ? ` (HTTP ${result.status})` : ''}{result.response ? `: ${result.response.slice(0, 120)}` : ''}</Text>}
    </Stack>
  );
}

function Deliveries({ webhookId }: { webhookId: string }) {
  const { format, can } = useWorkspace();
  const log = useLoad(async () => rowsOf(await database.from('webhook_notifications')
    .select('id,event_type,status,tries,response,created_at,updated_at').eq('webhook_id', webhookId)
    .order('created_at', { ascending: false }).limit(50)), [webhookId]);
  const [chosen, setChosen] = useState<string[]>([]);
  const [message, setMessage] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const redeliver = async () => {
    setError(null);
    try {
      const answer = await requestJson<{ requeued: string[] }>('POST', '/v1/webhook-redeliver', { ids: chosen });
      setMessage(`${answer.requeued.length} notification${answer.requeued.length === 1 ? '' : 's'} queued again.`);
      setChosen([]);
      log.reload();
    } catch (failure) {
      setError(failure);
    }
  };
  if (log.loading && !log.data) return <Loader size="sm" role="status" aria-label="Loading deliveries" />;
  return (
    <Stack mt="sm" gap="xs">
      <ErrorAlert error={log.error ?? error} title="Deliveries" />
      {message && <Text size="sm" role="status">{message}</Text>}
      {log.data?.length === 0 && <Text size="sm" c="dimmed">Nothing sent yet.</Text>}
      {log.data && log.data.length > 0 && (
        <Table.ScrollContainer minWidth={640}>
          <Table aria-label="Deliveries">
            <Table.Thead><Table.Tr><Table.Th>Redeliver</Table.Th><Table.Th>Event</Table.Th><Table.Th>Status</Table.Th><Table.Th>Tries</Table.Th><Table.Th>Last change</Table.Th><Table.Th>Response</Table.Th></Table.Tr></Table.Thead>
            <Table.Tbody>
              {log.data.map((row) => (
                <Table.Tr key={row.id}>
                  <Table.Td><Checkbox aria-label={`Redeliver ${row.event_type} of ${format.moment(row.created_at)}`} disabled={row.status === 'pending'}
                    checked={chosen.includes(row.id)} onChange={(e) => setChosen(e.currentTarget.checked ? [...chosen, row.id] : chosen.filter((id) => id !== row.id))} /></Table.Td>
                  <Table.Td>{row.event_type}</Table.Td>
                  <Table.Td><Badge color={STATUS_COLORS[row.status]}>{row.status}</Badge></Table.Td>
                  <Table.Td>{row.tries}</Table.Td>
                  <Table.Td>{format.moment(row.updated_at)}</Table.Td>
                  <Table.Td><Text size="xs" lineClamp={2}>{row.response ?? '—'}</Text></Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {can('webhooks', 'write') && <Group><Button onClick={redeliver} disabled={chosen.length === 0}>Redeliver {chosen.length || ''}</Button></Group>}
    </Stack>
  );
}

/**
 * Webhooks: the organization's endpoints, a new one (its signing secret shown once), a test message, and each
 * webhook's delivery log with redelivery of the notifications chosen.
 */
import { useState, type FormEvent } from 'react';
import { Alert, Badge, Button, Checkbox, Code, CopyButton, Group, Loader, MultiSelect, Paper, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { database, rowsOf, type Row } from '../api/database';
import { requestJson } from '../api/http';
import { ErrorAlert } from '../common/ErrorAlert';
import { useLoad } from '../common/use-load';
import { useWorkspace } from '../shell/context';
import { loadWebhookEvents, type WebhookEvent, type WebhookEventType } from '../api/webhook-events';
import { useResourceName } from './resource-names';

const STATUS_COLORS = { pending: '#1864ab', sent: '#1c6b48', error: '#a61e1e' } as const;

const ENDPOINT_EXAMPLE = 'https://example.com/hooks/staykit';

const DELIVERY_COLUMNS = ['redeliver', 'event', 'status', 'tries', 'lastChange', 'response'] as const;

export function Webhooks() {
  const { can } = useWorkspace();
  const mayWrite = can('webhooks', 'write');
  const webhooks = useLoad(async () => rowsOf(await database.from('webhooks').select('id,endpoint,events,description,disabled_at').order('created_at')), []);
  const [secret, setSecret] = useState<string | null>(null);
  const [open, setOpen] = useState<string | null>(null);
  const { t } = useTranslation(['settings', 'common']);

  return (
    <Stack>
      <Title order={2}>{t('webhooks.title')}</Title>
      <Text size="sm">{t('webhooks.intro')}</Text>
      {mayWrite && <NewWebhook onCreated={(created) => { setSecret(created); webhooks.reload(); }} />}
      {secret && (
        <Alert color="green" title={t('webhooks.created')} withCloseButton onClose={() => setSecret(null)} closeButtonLabel={t('webhooks.hideSecret')} role="status">
          <Text size="sm">{t('webhooks.secretOnce')}</Text>
          <Group wrap="nowrap" gap="xs" mt="xs">
            <Code block style={{ wordBreak: 'break-all', flex: 1 }}>{secret}</Code>
            <CopyButton value={secret}>{({ copied, copy }) => <Button variant="default" onClick={copy}>{copied ? t('common:copied') : t('common:copy')}</Button>}</CopyButton>
          </Group>
        </Alert>
      )}
      <ErrorAlert error={webhooks.error} title={t('webhooks.loadFailed')} />
      {webhooks.loading && !webhooks.data && <Loader size="sm" role="status" aria-label={t('webhooks.loading')} />}
      {webhooks.data?.length === 0 && <Text c="dimmed">{t('webhooks.none')}</Text>}
      {webhooks.data?.map((webhook) => (
        <Paper withBorder p="md" key={webhook.id} component="section" aria-label={t('webhooks.webhook', { endpoint: webhook.endpoint })}>
          <Group justify="space-between" wrap="wrap">
            <Stack gap={2}>
              <Text fw={600} style={{ wordBreak: 'break-all' }}>{webhook.endpoint}</Text>
              <Text size="sm" c="dimmed">{webhook.description || t('webhooks.noDescription')} · {webhook.events.join(', ')}</Text>
              {webhook.disabled_at && <Text size="sm" c="red.9">{t('webhooks.gone')}</Text>}
            </Stack>
            <Group gap="xs">
              {mayWrite && <TestButton webhookId={webhook.id} />}
              <Button variant="default" onClick={() => setOpen(open === webhook.id ? null : webhook.id)} aria-expanded={open === webhook.id}>
                {open === webhook.id ? t('webhooks.hideDeliveries') : t('webhooks.deliveries')}
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

function eventOptions(catalogue: WebhookEventType[], t: TFunction<'settings'>, resourceName: (resource: string) => string): { group: string; items: EventOption[] }[] {
  const groups = new Map<string, EventOption[]>();
  for (const event of catalogue) {
    const items = groups.get(event.resource) ?? [];
    items.push({ value: event.name, label: event.name, disabled: !event.allowed });
    groups.set(event.resource, items);
  }
  return [
    { group: t('webhooks.all'), items: [{ value: '*', label: t('webhooks.everyEvent'), disabled: !catalogue.every((event) => event.allowed) }] },
    ...[...groups].map(([resource, items]) => ({ group: resourceName(resource), items })),
  ];
}

function NewWebhook({ onCreated }: { onCreated: (secret: string) => void }) {
  const { t } = useTranslation('settings');
  const resourceName = useResourceName();
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
    <Paper withBorder p="md" component="form" onSubmit={submit} aria-label={t('webhooks.addForm')}>
      <Stack gap="sm">
        <Title order={3} size="h4">{t('webhooks.addForm')}</Title>
        <ErrorAlert error={error} title={t('webhooks.addFailed')} />
        <Group align="flex-end" wrap="wrap">
          <TextInput label={t('webhooks.endpoint')} type="url" required placeholder={ENDPOINT_EXAMPLE} value={endpoint} onChange={(e) => setEndpoint(e.currentTarget.value)} miw={280} />
          <MultiSelect label={t('webhooks.events')} required data={eventOptions(catalogue.data ?? [], t, resourceName)} value={events} onChange={setEvents} searchable miw={260}
            renderOption={({ option }) => {
              const event = descriptions.get(option.value);
              return (
                <Stack gap={0}>
                  <Text size="sm">{option.label}</Text>
                  {event && <Text size="xs" c="dimmed">{event.description}{event.allowed ? '' : ` ${t('webhooks.needs', { scopes: event.read_scopes.map((table) => `${table}:read`).join(', ') })}`}</Text>}
                </Stack>
              );
            }} />
          <TextInput label={t('webhooks.description')} value={description} onChange={(e) => setDescription(e.currentTarget.value)} />
          <Button type="submit" loading={busy}>{t('webhooks.add')}</Button>
        </Group>
      </Stack>
    </Paper>
  );
}

function TestButton({ webhookId }: { webhookId: string }) {
  const { t } = useTranslation('settings');
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
      <Button variant="default" onClick={test} loading={busy}>{t('webhooks.sendTest')}</Button>
      <ErrorAlert error={error} title={t('webhooks.testFailed')} />
      {result && <Text size="sm" role="status">{result.ok ? t('webhooks.delivered') : t('webhooks.failed')}{result.status ? ` (HTTP ${result.status})` : ''}{result.response ? `: ${result.response.slice(0, 120)}` : ''}</Text>}
    </Stack>
  );
}

function Deliveries({ webhookId }: { webhookId: string }) {
  const { format, can } = useWorkspace();
  const { t } = useTranslation('settings');
  const mayRedeliver = can('webhooks', 'write');
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
      setMessage(t('webhooks.requeued', { count: answer.requeued.length }));
      setChosen([]);
      log.reload();
    } catch (failure) {
      setError(failure);
    }
  };
  if (log.loading && !log.data) return <Loader size="sm" role="status" aria-label={t('webhooks.loadingDeliveries')} />;
  return (
    <Stack mt="sm" gap="xs">
      <ErrorAlert error={log.error ?? error} title={t('webhooks.deliveries')} />
      {message && <Text size="sm" role="status">{message}</Text>}
      {log.data?.length === 0 && <Text size="sm" c="dimmed">{t('webhooks.nothingSent')}</Text>}
      {log.data && log.data.length > 0 && (
        <Table.ScrollContainer minWidth={640}>
          <Table aria-label={t('webhooks.deliveries')}>
            <Table.Thead><Table.Tr>{DELIVERY_COLUMNS.map((column) => <Table.Th key={column}>{t(`webhooks.column.${column}`)}</Table.Th>)}</Table.Tr></Table.Thead>
            <Table.Tbody>
              {log.data.map((row) => (
                <Table.Tr key={row.id}>
                  <Table.Td><Checkbox aria-label={t('webhooks.redeliverOne', { event: row.event_type, moment: format.moment(row.created_at) })} disabled={row.status === 'pending'}
                    checked={chosen.includes(row.id)} onChange={(e) => setChosen(e.currentTarget.checked ? [...chosen, row.id] : chosen.filter((id) => id !== row.id))} /></Table.Td>
                  <Table.Td>{row.event_type}</Table.Td>
                  <Table.Td><Badge color={STATUS_COLORS[row.status]}>{t(`webhooks.status.${row.status}`)}</Badge></Table.Td>
                  <Table.Td>{row.tries}</Table.Td>
                  <Table.Td>{format.moment(row.updated_at)}</Table.Td>
                  <Table.Td><Text size="xs" lineClamp={2}>{row.response ?? '—'}</Text></Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {mayRedeliver && <Group><Button onClick={redeliver} disabled={chosen.length === 0}>{chosen.length === 0 ? t('webhooks.redeliver') : t('webhooks.redeliverCount', { number: chosen.length })}</Button></Group>}
    </Stack>
  );
}

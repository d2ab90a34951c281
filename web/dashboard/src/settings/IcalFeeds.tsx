/**
 * iCal: each unit's export links (with and without guest details) to paste into other calendars, and the imported
 * feeds with their last sync and any problem (an unreadable feed, or an event that overlaps a booking: a conflict).
 * A link's secret is shown only to members the server lets read it (docs/ical.md#who-may-read-the-secrets): each is
 * asked for on its own, and a 403 means "not yours to see"; *New links* rotates the secrets the member may read.
 */
import { useState, type FormEvent } from 'react';
import { Button, Code, CopyButton, Group, Loader, Paper, Select, Stack, Table, Text, TextInput, Title, VisuallyHidden } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { database, rowsOf, type Row } from '../api/database';
import { loadUnitNames, type UnitName } from '../api/units';
import { ErrorAlert } from '../common/ErrorAlert';
import { localized } from '../common/format';
import { useLoad } from '../common/use-load';
import { useWorkspace } from '../shell/context';

/**
 * The secrets' columns. They are not in the generated types, which show what an API role reads by its grants: these
 * are readable only with the permissions docs/ical.md lists, through roles of their own (`staykit_api_ical`, `…_details`).
 */
const LINKS = ['ical_export_secret', 'ical_export_secret_no_details'] as const;

type SecretColumn = (typeof LINKS)[number];

/** Each live unit's secret in `column` by unit id; null when the member may not read that secret (403). */
async function secretsIn(column: SecretColumn): Promise<Map<string, string> | null> {
  const result = await database.from('products').select(`id,${column}`).is('deleted_at', null)
    .returns<(Pick<Row<'products'>, 'id'> & Record<SecretColumn, string>)[]>();
  if (result.status === 403) return null;
  return new Map(rowsOf(result).map((row) => [row.id, row[column]]));
}

const FEED_COLUMNS = ['unit', 'feed', 'lastSync', 'problems'] as const;

const FEED_URL_EXAMPLE = 'https://…/calendar.ics';

const feedUrl = (secret: string) => `${window.location.origin}/v1/ical/${secret}.ics`;

function CopyLink({ label, url }: { label: string; url: string }) {
  const { t } = useTranslation(['settings', 'common']);
  return (
    <Group gap="xs" wrap="nowrap">
      <Text size="sm" w={120}>{label}</Text>
      <Code style={{ wordBreak: 'break-all', flex: 1 }}>{url}</Code>
      <CopyButton value={url}>{({ copied, copy }) => <Button size="xs" variant="default" onClick={copy} aria-label={t('ical.copyLink', { link: label.toLowerCase() })}>{copied ? t('common:copied') : t('common:copy')}</Button>}</CopyButton>
    </Group>
  );
}

export function IcalFeeds() {
  const { can, format, locale } = useWorkspace();
  const { t } = useTranslation('settings');
  const units = useLoad(loadUnitNames, []);
  const secrets = useLoad(async () => Promise.all(LINKS.map(secretsIn)), []);
  const readable = LINKS.filter((_, index) => secrets.data?.[index]);
  const feeds = useLoad(async () => rowsOf(await database.from('external_calendars')
    .select('id,product_id,name,ical_url,active,error,last_synced,sync_requested_at').order('created_at')), []);
  const mayImport = can('external_calendars', 'write');
  const [error, setError] = useState<unknown>(null);
  const unitName = (id: string) => localized(units.data?.find((unit) => unit.id === id)?.name, locale);
  const renewLinks = async (id: string) => {
    setError(null);
    try {
      rowsOf(await database.from('products').update(Object.fromEntries(readable.map((column) => [column, null]))).eq('id', id));
      secrets.reload();
    } catch (failure) {
      setError(failure);
    }
  };
  const syncNow = async (id: string) => {
    setError(null);
    try {
      rowsOf(await database.from('external_calendars').update({ sync_requested_at: new Date().toISOString() }).eq('id', id));
      feeds.reload();
    } catch (failure) {
      setError(failure);
    }
  };

  return (
    <Stack>
      <Title order={2}>{t('ical.title')}</Title>
      <ErrorAlert error={units.error ?? secrets.error ?? feeds.error ?? error} title={t('ical.title')} />
      <Title order={3} size="h4">{t('ical.exportLinks')}</Title>
      <Text size="sm">{t('ical.exportIntro')}</Text>
      {secrets.data && readable.length < LINKS.length && (
        <Text size="sm" c="dimmed">{readable.length === 0 ? t('ical.noLinks') : t('ical.noDetailsLink')}</Text>
      )}
      {(units.loading || secrets.loading) && !units.data && <Loader size="sm" role="status" aria-label={t('ical.loadingUnits')} />}
      {readable.length > 0 && units.data?.map((unit) => (
        <Paper withBorder p="sm" key={unit.id} component="section" aria-label={t('ical.linksOf', { unit: localized(unit.name, locale) })}>
          <Group justify="space-between" mb={4}>
            <Text fw={600}>{localized(unit.name, locale)}</Text>
            <Button size="xs" variant="default" onClick={() => renewLinks(unit.id)} aria-label={t('ical.newLinksFor', { unit: localized(unit.name, locale) })}>{t('ical.newLinks')}</Button>
          </Group>
          {LINKS.map((column, index) => {
            const secret = secrets.data?.[index]?.get(unit.id);
            return secret && <CopyLink key={column} label={t(`ical.link.${column}`)} url={feedUrl(secret)} />;
          })}
        </Paper>
      ))}
      <Title order={3} size="h4">{t('ical.imported')}</Title>
      {mayImport && units.data && <NewFeed units={units.data} onAdded={feeds.reload} />}
      {feeds.data?.length === 0 && <Text size="sm" c="dimmed">{t('ical.noneImported')}</Text>}
      {feeds.data && feeds.data.length > 0 && (
        <Table.ScrollContainer minWidth={640}>
          <Table aria-label={t('ical.imported')}>
            <Table.Thead><Table.Tr>{FEED_COLUMNS.map((column) => <Table.Th key={column}>{t(`ical.column.${column}`)}</Table.Th>)}<Table.Th><VisuallyHidden>{t('ical.column.actions')}</VisuallyHidden></Table.Th></Table.Tr></Table.Thead>
            <Table.Tbody>
              {feeds.data.map((feed) => (
                <Table.Tr key={feed.id}>
                  <Table.Td>{unitName(feed.product_id)}</Table.Td>
                  <Table.Td><Text size="sm">{feed.name ?? ''}</Text><Text size="xs" style={{ wordBreak: 'break-all' }}>{feed.ical_url}</Text>{!feed.active && <Text size="xs">{t('ical.inactive')}</Text>}</Table.Td>
                  <Table.Td>{format.moment(feed.last_synced)}</Table.Td>
                  <Table.Td><Text size="sm" c={feed.error ? 'red.9' : undefined} style={{ whiteSpace: 'pre-line' }}>{feed.error ?? t('ical.noProblems')}</Text></Table.Td>
                  <Table.Td>{mayImport && <Button size="xs" variant="default" onClick={() => syncNow(feed.id)}>{t('ical.syncNow')}</Button>}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}

function NewFeed({ units, onAdded }: { units: UnitName[]; onAdded: () => void }) {
  const { locale } = useWorkspace();
  const { t } = useTranslation('settings');
  const [unitId, setUnitId] = useState<string | null>(units[0]?.id ?? null);
  const [url, setUrl] = useState('');
  const [name, setName] = useState('');
  const [error, setError] = useState<unknown>(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    if (!unitId) return;
    try {
      rowsOf(await database.from('external_calendars').insert({ product_id: unitId, ical_url: url, name: name || null }));
      setUrl('');
      onAdded();
    } catch (failure) {
      setError(failure);
    }
  };
  return (
    <Paper withBorder p="md" component="form" onSubmit={submit} aria-label={t('ical.importForm')}>
      <ErrorAlert error={error} title={t('ical.addFailed')} />
      <Group align="flex-end" wrap="wrap">
        <Select label={t('ical.unit')} required data={units.map((unit) => ({ value: unit.id, label: localized(unit.name, locale) }))} value={unitId} onChange={setUnitId} />
        <TextInput label={t('ical.url')} type="url" required value={url} onChange={(e) => setUrl(e.currentTarget.value)} placeholder={FEED_URL_EXAMPLE} miw={280} />
        <TextInput label={t('ical.name')} value={name} onChange={(e) => setName(e.currentTarget.value)} placeholder={t('ical.namePlaceholder')} />
        <Button type="submit">{t('ical.import')}</Button>
      </Group>
    </Paper>
  );
}

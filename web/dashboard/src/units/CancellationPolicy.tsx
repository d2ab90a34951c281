/**
 * A unit's cancellation policy (products.cancellation_policy, migration 0216): rules "cancelled at least N days before
 * arrival, P % refunded", added and removed as rows, with the sentences guests read in the widget before booking.
 */
import { useState } from 'react';
import { Button, Card, Group, List, NumberInput, Stack, Table, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { describeCancellationPolicy, type CancellationRule } from '../../../../src/common/cancellation-policy.js';
import { database, rowsOf } from '../api/database';
import { ErrorAlert } from '../common/ErrorAlert';
import { useWorkspace } from '../shell/context';

/** At most this many rules (the database's CHECK). */
const MAX_RULES = 10;

interface Row {
  days: number | string;
  percentage: number | string;
}

const rowsOfPolicy = (policy: readonly CancellationRule[]): Row[] =>
  policy.map((rule) => ({ days: rule.days_before_arrival, percentage: rule.refund_percentage }));

/** The rows that are whole numbers, as rules, most days first (the order guests read them in). */
function rulesOf(rows: Row[]): CancellationRule[] {
  return rows
    .filter((row) => row.days !== '' && row.percentage !== '' && Number.isInteger(Number(row.days)) && Number.isInteger(Number(row.percentage)))
    .map((row) => ({ days_before_arrival: Number(row.days), refund_percentage: Number(row.percentage) }))
    .sort((a, b) => b.days_before_arrival - a.days_before_arrival);
}

export function CancellationPolicy({ unitId, policy }: { unitId: string; policy: CancellationRule[] }) {
  const { can } = useWorkspace();
  const { t, i18n } = useTranslation(['units', 'common']);
  const mayWrite = can('products', 'write');
  const [stored, setStored] = useState(rulesOf(rowsOfPolicy(policy)));
  const [rows, setRows] = useState<Row[]>(rowsOfPolicy(policy));
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState(false);
  const rules = rulesOf(rows);
  const incomplete = rules.length !== rows.length;
  const changed = JSON.stringify(rules) !== JSON.stringify(stored);

  const change = (index: number, field: keyof Row, value: number | string) => {
    setSaved(false);
    setRows(rows.map((row, at) => (at === index ? { ...row, [field]: value } : row)));
  };
  const save = async () => {
    setBusy(true);
    setError(null);
    try {
      rowsOf(await database.from('products').update({ cancellation_policy: rules }).eq('id', unitId));
      setStored(rules);
      setRows(rowsOfPolicy(rules));
      setSaved(true);
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card withBorder component="section" aria-label={t('cancellation.title')}>
      <Stack gap="sm">
        <Title order={3} size="h4">{t('cancellation.title')}</Title>
        <Text size="sm" c="dimmed">{t('cancellation.intro')}</Text>
        <ErrorAlert error={error} title={t('cancellation.failed')} />
        {rows.length > 0 && (
          <Table aria-label={t('cancellation.table')} maw={560}>
            <Table.Thead><Table.Tr><Table.Th>{t('cancellation.days')}</Table.Th><Table.Th>{t('cancellation.refund')}</Table.Th><Table.Th /></Table.Tr></Table.Thead>
            <Table.Tbody>
              {rows.map((row, index) => (
                <Table.Tr key={index}>
                  <Table.Td>
                    {mayWrite ? <NumberInput size="xs" w={120} min={0} max={3650} allowDecimal={false} allowNegative={false} aria-label={t('cancellation.daysOf', { number: index + 1 })}
                      value={row.days} onChange={(value) => change(index, 'days', value)} /> : row.days}
                  </Table.Td>
                  <Table.Td>
                    {mayWrite ? <NumberInput size="xs" w={100} min={0} max={100} allowDecimal={false} allowNegative={false} aria-label={t('cancellation.refundOf', { number: index + 1 })}
                      value={row.percentage} onChange={(value) => change(index, 'percentage', value)} /> : t('cancellation.percent', { value: row.percentage })}
                  </Table.Td>
                  <Table.Td>
                    {mayWrite && <Button size="xs" variant="default" aria-label={t('cancellation.removeRule', { number: index + 1 })}
                      onClick={() => { setSaved(false); setRows(rows.filter((_, at) => at !== index)); }}>{t('common:remove')}</Button>}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
        <div>
          <Text size="sm" fw={600}>{t('cancellation.guestsRead')}</Text>
          <List size="sm" aria-label={t('cancellation.whatGuestsRead')}>
            {describeCancellationPolicy(rules, i18n.language).map((sentence) => <List.Item key={sentence}>{sentence}</List.Item>)}
          </List>
        </div>
        {mayWrite && (
          <Group>
            <Button size="xs" variant="default" disabled={rows.length >= MAX_RULES}
              onClick={() => { setSaved(false); setRows([...rows, { days: '', percentage: '' }]); }}>{t('cancellation.addRule')}</Button>
            <Button size="xs" onClick={save} loading={busy} disabled={!changed || incomplete}>{t('cancellation.save')}</Button>
            {incomplete && <Text size="sm" c="dimmed">{t('cancellation.incomplete')}</Text>}
            {saved && !changed && <Text size="sm" role="status">{t('cancellation.saved')}</Text>}
          </Group>
        )}
      </Stack>
    </Card>
  );
}

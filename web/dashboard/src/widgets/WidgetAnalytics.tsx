/**
 * What the widget did in the last 30 days, per day (UTC, as the database counts days): views (the widget loaded),
 * quotes and bookings, newest day first, with the totals. Days without any event are left out.
 */
import { Card, Stack, Table, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { addDays } from '../common/dates';
import { ErrorAlert } from '../common/ErrorAlert';
import { useLoad } from '../common/use-load';
import { useWorkspace } from '../shell/context';
import { analyticsByDay, SHOWN_EVENTS } from './analytics';
import { loadAnalytics } from './queries';

const DAYS = 30;

export function WidgetAnalytics({ widgetId }: { widgetId: string }) {
  const { t } = useTranslation('widgets');
  const { format } = useWorkspace();
  const since = addDays(new Date().toISOString().slice(0, 10), 1 - DAYS);
  const counts = useLoad(() => loadAnalytics(widgetId, since), [widgetId, since]);
  const table = counts.data && analyticsByDay(counts.data);
  return (
    <Card withBorder component="section" aria-label={t('analytics.title')}>
      <Stack gap="sm">
        <Title order={3} size="h4">{t('analytics.title')}</Title>
        <Text size="sm" c="dimmed">{t('analytics.intro', { count: DAYS })}</Text>
        <ErrorAlert error={counts.error} title={t('analytics.loadFailed')} />
        {table && table.days.length === 0 && <Text size="sm">{t('analytics.none')}</Text>}
        {table && table.days.length > 0 && (
          <Table.ScrollContainer minWidth={420}>
            <Table aria-label={t('analytics.title')} maw={560}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('analytics.day')}</Table.Th>
                  {SHOWN_EVENTS.map((event) => <Table.Th key={event} ta="right">{t(`analytics.events.${event}`)}</Table.Th>)}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {table.days.map((day) => (
                  <Table.Tr key={day.day}>
                    <Table.Td>{format.date(day.day)}</Table.Td>
                    {SHOWN_EVENTS.map((event) => <Table.Td key={event} ta="right">{day.counts[event]}</Table.Td>)}
                  </Table.Tr>
                ))}
              </Table.Tbody>
              <Table.Tfoot>
                <Table.Tr>
                  <Table.Th>{t('analytics.total')}</Table.Th>
                  {SHOWN_EVENTS.map((event) => <Table.Th key={event} ta="right">{table.totals[event]}</Table.Th>)}
                </Table.Tr>
              </Table.Tfoot>
            </Table>
          </Table.ScrollContainer>
        )}
      </Stack>
    </Card>
  );
}

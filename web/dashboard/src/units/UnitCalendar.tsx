/**
 * A unit's month as the booking engine sees it: each date's status and its nightly "from" rate (GET /v1/availability,
 * the same answer the widget's calendar draws), per-date prices marked. A manager closes or reopens a date by
 * pressing it: a closed per-date entry (closures.ts), which the widget and every booking refuse.
 */
import { useState } from 'react';
import { Box, Button, Card, Group, SimpleGrid, Stack, Text, Title, UnstyledButton } from '@mantine/core';
import { Trans, useTranslation } from 'react-i18next';
import type { ProductAvailability } from '../../../../src/booking/answer-schemas.js';
import { database, rowsOf } from '../api/database';
import { requestJson } from '../api/http';
import { addMonths, monthDays, monthStart } from '../common/dates';
import { ErrorAlert } from '../common/ErrorAlert';
import { useLoad } from '../common/use-load';
import { useWorkspace } from '../shell/context';
import { setClosed, type DateEntry } from './closures';
import { weekdayIndex } from './intervals';
import { useWeekdayNames } from './reader-words';

export function UnitCalendar({ unitId, currency, version, onChanged }: { unitId: string; currency: string; version: number; onChanged: () => void }) {
  const { can, format } = useWorkspace();
  const { t } = useTranslation('units');
  const weekdayNames = useWeekdayNames();
  const today = format.today();
  const [month, setMonth] = useState(() => monthStart(today));
  const days = monthDays(month);
  const next = addMonths(month, 1);
  const loaded = useLoad(async () => {
    const [availability, entries] = await Promise.all([
      requestJson<ProductAvailability[]>('GET', `/v1/availability?product_ids=${unitId}&start=${month}&end=${next}&include=days&show_booked_as=booked&show_closed_as=closed`),
      database.from('price_calendar_entries').select('id,date,rate,min_duration,closed').eq('product_id', unitId).gte('date', month).lt('date', next),
    ]);
    return { days: new Map((availability[0]?.days ?? []).map((day) => [day.date, day])), entries: new Map(rowsOf(entries).map((entry) => [entry.date, entry])) };
  }, [unitId, month, next, version]);
  const [error, setError] = useState<unknown>(null);
  const mayWrite = can('price_calendar_entries', 'write');

  const toggle = async (date: string, entry: DateEntry | undefined) => {
    setError(null);
    try {
      await setClosed(unitId, date, entry, !entry?.closed);
      onChanged();
    } catch (failure) {
      setError(failure);
    }
  };

  return (
    <Card withBorder component="section" aria-label={t('calendar.title')}>
      <Stack>
        <Group justify="space-between">
          <Title order={3} size="h4">{t('calendar.title')}</Title>
          <Group gap="xs">
            <Button size="xs" variant="default" aria-label={t('calendar.previousMonth')} onClick={() => setMonth(addMonths(month, -1))}>‹</Button>
            <Text fw={600} miw={140} ta="center" aria-live="polite">{format.month(month)}</Text>
            <Button size="xs" variant="default" aria-label={t('calendar.nextMonth')} onClick={() => setMonth(next)}>›</Button>
          </Group>
        </Group>
        <Text size="sm" c="dimmed">
          <Trans t={t} i18nKey={mayWrite ? 'calendar.introClosing' : 'calendar.intro'} components={{ b: <b /> }} />
        </Text>
        <ErrorAlert error={loaded.error ?? error} title={t('calendar.title')} />
        <SimpleGrid cols={7} spacing={4} role="group" aria-label={t('calendar.datesOf', { month: format.month(month) })}>
          {weekdayNames.map((weekday) => <Text key={weekday} size="xs" ta="center" c="dimmed" aria-hidden>{weekday}</Text>)}
          {Array.from({ length: weekdayIndex(month) }, (_, index) => <div key={`lead-${index}`} />)}
          {days.map((date) => {
            const day = loaded.data?.days.get(date);
            const entry = loaded.data?.entries.get(date);
            const closed = entry?.closed === true;
            const priced = entry?.rate != null;
            const past = date < today;
            // What each status of /v1/availability (booked and closed shown as themselves) means to the manager.
            const status = day ? t(`calendar.statuses.${day.status}`) : '';
            // A price only where a night can be booked: a booked or closed date shows what it is instead.
            const rate = day?.rate != null && day.status === 'available' && !closed ? format.money(day.rate, currency) : null;
            const label = [format.date(date), closed ? t('calendar.statuses.closed') : status, rate && (priced ? t('calendar.setForDate', { rate }) : rate)].filter(Boolean).join(', ');
            // The price or status is drawn under the day but is not the button's content: the visible day stays part of
            // the button's name, which says the date, the status and the price in words (as the widget's calendar does).
            return (
              <Box key={date} pos="relative" mih={52} bg={past ? 'gray.0' : closed ? 'gray.3' : day?.status === 'booked' ? 'blue.1' : undefined}
                style={{ border: '1px solid var(--mantine-color-gray-4)', borderRadius: 4 }}>
                <UnstyledButton aria-label={label} aria-pressed={closed} disabled={!mayWrite || past || loaded.loading}
                  onClick={() => void toggle(date, entry)} data-date={date} pos="absolute" inset={0} ta="center" pt={4}
                  td={closed ? 'line-through' : undefined} fz="sm" style={{ display: 'flex', alignItems: 'flex-start', justifyContent: 'center' }}>{Number(date.slice(8))}</UnstyledButton>
                <Text size="xs" fw={priced ? 700 : 400} ta="center" aria-hidden pos="absolute" bottom={4} left={0} right={0} style={{ pointerEvents: 'none' }}>
                  {past ? '' : closed ? t('calendar.closed') : rate ?? status}
                </Text>
              </Box>
            );
          })}
        </SimpleGrid>
      </Stack>
    </Card>
  );
}

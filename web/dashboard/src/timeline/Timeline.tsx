/**
 * The calendar timeline: units as rows, the days of a month as columns, bookings and blocks as bars coloured by
 * status, tasks as dots on their due day. A bar opens its booking (or the block); picking a first and a last free
 * day of a unit adds a block or a booking there.
 */
import { useState } from 'react';
import { ActionIcon, Button, Group, Loader, Stack, Switch, Text, Title } from '@mantine/core';
import { MonthPickerInput } from '@mantine/dates';
import { useTranslation } from 'react-i18next';
import { addMonths, monthDays, monthStart } from '../common/dates';
import { ErrorAlert } from '../common/ErrorAlert';
import { useLoad } from '../common/use-load';
import { useWorkspace } from '../shell/context';
import { BlockModal } from './BlockModal';
import { EventModal } from './EventModal';
import { Legend } from './Legend';
import { loadTimeline, type TimelineEvent } from './queries';
import { MonthGrid } from './MonthGrid';
import { SelectionModal } from './SelectionModal';
import { selectionRange } from './layout';
import { usePickerLabels } from '../units/reader-words';

export function Timeline() {
  const { can, format, locale } = useWorkspace();
  const pickerLabels = usePickerLabels();
  const { t, i18n } = useTranslation(['calendar', 'common']);
  const [month, setMonth] = useState(() => monthStart(format.today()));
  const [showCancelled, setShowCancelled] = useState(false);
  const [anchor, setAnchor] = useState<{ unitId: string; date: string } | null>(null);
  const [newBlock, setNewBlock] = useState<{ unitId: string | null; start: string | null; end: string | null } | null>(null);
  const [selection, setSelection] = useState<{ unitId: string; start: string; end: string } | null>(null);
  const [openEvent, setOpenEvent] = useState<TimelineEvent | null>(null);
  const days = monthDays(month);
  // The language names the units of a member who may not read them ("Unit 2"): a new one loads them again.
  const timeline = useLoad(() => loadTimeline(month, days.length, can, locale, showCancelled, (number) => t('unnamedUnit', { number })),
    [month, showCancelled, can, locale, i18n.language]);
  const mayBlock = can('calendar_events', 'write');
  const choices = [mayBlock && 'block' as const, can('bookings', 'write') && 'booking' as const].filter((choice) => choice !== false);

  const pickDay = (unitId: string, date: string) => {
    if (choices.length === 0) return;
    if (!anchor || anchor.unitId !== unitId) return setAnchor({ unitId, date });
    setSelection({ unitId, ...selectionRange(anchor.date, date) });
    setAnchor(null);
  };

  return (
    <Stack gap="sm">
      <Group justify="space-between" wrap="wrap">
        <Title order={2}>{t('title')}</Title>
        <Group gap="xs" wrap="wrap">
          <ActionIcon variant="default" size="lg" aria-label={t('previousMonth')} onClick={() => setMonth(addMonths(month, -1))}>‹</ActionIcon>
          <MonthPickerInput ariaLabels={pickerLabels} aria-label={t('month', { month: format.month(month) })} value={month} onChange={(value) => value && setMonth(monthStart(value))}
            valueFormatter={({ date }) => (date ? format.month(String(date).slice(0, 10)) : '')} w={170} />
          <ActionIcon variant="default" size="lg" aria-label={t('nextMonth')} onClick={() => setMonth(addMonths(month, 1))}>›</ActionIcon>
          <Button variant="default" onClick={() => setMonth(monthStart(format.today()))}>{t('common:today')}</Button>
          {mayBlock && <Button onClick={() => setNewBlock({ unitId: null, start: null, end: null })}>{t('addBlock')}</Button>}
        </Group>
      </Group>
      <Group justify="space-between" wrap="wrap">
        <Legend />
        <Switch label={t('showCancelled')} checked={showCancelled} onChange={(event) => setShowCancelled(event.currentTarget.checked)} />
      </Group>
      {choices.length > 0 && (
        <Text size="sm" c="dimmed" aria-live="polite">
          {anchor ? t('firstPicked', { date: format.date(anchor.date) }) : t(`pick.${choices.length > 1 ? 'both' : choices[0]!}`)}
        </Text>
      )}
      <ErrorAlert error={timeline.error} title={t('loadFailed')} />
      {timeline.loading && !timeline.data && <Group><Loader size="sm" role="status" aria-label={t('loading')} /><Text size="sm">{t('loadingText')}</Text></Group>}
      {timeline.data && (
        <MonthGrid days={days} data={timeline.data} anchor={anchor} busy={timeline.loading}
          onPickDay={pickDay} onCancelPick={() => setAnchor(null)} onOpenEvent={setOpenEvent} />
      )}
      {newBlock && timeline.data && (
        <BlockModal units={timeline.data.units} initial={newBlock} onClose={() => setNewBlock(null)}
          onSaved={() => { setNewBlock(null); timeline.reload(); }} />
      )}
      {selection && timeline.data && (
        <SelectionModal units={timeline.data.units} unitId={selection.unitId} days={selection} choices={choices}
          onClose={() => setSelection(null)} onSaved={() => { setSelection(null); timeline.reload(); }} />
      )}
      {openEvent && (
        <EventModal event={openEvent} unit={timeline.data?.units.find((unit) => unit.id === openEvent.product_id)?.name ?? ''}
          onClose={() => setOpenEvent(null)} onChanged={() => { setOpenEvent(null); timeline.reload(); }} />
      )}
    </Stack>
  );
}

/**
 * The organization's seasons (`seasons`): named, coloured sets of dates — high season, school holidays — to plan
 * prices and stay rules by. Add one with its first dates, rename one (in each language its name has), add or remove
 * dates of each, delete one.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ActionIcon, Button, ColorInput, ColorSwatch, Group, Loader, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import { database, rowsOf, type Selected } from '../api/database';
import { ErrorAlert } from '../common/ErrorAlert';
import { localized } from '../common/format';
import { useLoad } from '../common/use-load';
import { useWorkspace } from '../shell/context';
import { withDefaultText } from './business-units';
import { intervalsOf, periodsOf, type Period } from './season-dates';
import { useAction } from '../common/use-action';
import { RenameForm } from '../common/RenameForm';
import { RenameDeleteButtons } from './RenameDeleteButtons';

const SEASON = 'id,name,color,intervals,order';
type Season = Selected<'seasons', typeof SEASON>;
type Range = [string | null, string | null];
const DEFAULT_COLOR = '#f59e0b';

export function Seasons() {
  const { t } = useTranslation('businessSettings');
  const loaded = useLoad(async () => rowsOf(await database.from('seasons').select(SEASON).order('order').order('created_at')), []);
  return (
    <Stack maw={760}>
      <Title order={2}>{t('seasons.title')}</Title>
      <Text size="sm">{t('seasons.intro')}</Text>
      <ErrorAlert error={loaded.error} title={t('loadFailed')} />
      {loaded.loading && !loaded.data && <Loader size="sm" role="status" aria-label={t('seasons.title')} />}
      {loaded.data && <SeasonList seasons={loaded.data} reload={loaded.reload} />}
    </Stack>
  );
}

function SeasonList({ seasons, reload }: { seasons: Season[]; reload: () => void }) {
  const { t } = useTranslation(['businessSettings', 'common']);
  const { can, locale, format } = useWorkspace();
  const mayWrite = can('seasons', 'write');
  const [name, setName] = useState('');
  const [color, setColor] = useState(DEFAULT_COLOR);
  const [range, setRange] = useState<Range>([null, null]);
  const [tried, setTried] = useState(false);
  /** The season whose name is being edited. */
  const [renaming, setRenaming] = useState<string | null>(null);
  const action = useAction(reload);
  const { error } = action;
  const busy = action.busy !== null;

  const change = (work: () => Promise<unknown>) => action.run('change', work);
  const add = async () => {
    setTried(true);
    if (name.trim() === '') return;
    const done = await change(async () => rowsOf(await database.from('seasons').insert({
      name: withDefaultText({}, name), color, intervals: intervalsOf(picked(range)), order: seasons.length,
    })));
    if (done) {
      setName('');
      setRange([null, null]);
      setTried(false);
    }
  };
  const writePeriods = (season: Season, periods: Period[]) =>
    change(async () => rowsOf(await database.from('seasons').update({ intervals: intervalsOf(periods) }).eq('id', season.id)));
  const periodText = (period: Period) => t('seasons.period', { start: format.date(period.first), end: format.date(period.last) });

  return (
    <Stack>
      <ErrorAlert error={error} title={t('changeFailed')} />
      {seasons.length === 0 && <Text size="sm" c="dimmed">{t('seasons.none')}</Text>}
      {seasons.map((season) => {
        const seasonName = localized(season.name, locale);
        const periods = periodsOf(season.intervals);
        return (
          <Paper key={season.id} withBorder p="md" component="section" aria-label={seasonName}>
            <Stack gap="xs">
              <Group justify="space-between">
                <Group gap="xs">
                  <ColorSwatch color={season.color} size={18} />
                  <Title order={3} size="h4">{seasonName}</Title>
                </Group>
                {mayWrite && (
                  <RenameDeleteButtons name={seasonName} busy={busy} renaming={renaming === season.id} onRename={() => setRenaming(season.id)}
                    onDelete={() => change(async () => rowsOf(await database.from('seasons').delete().eq('id', season.id)))} />
                )}
              </Group>
              {renaming === season.id && (
                <RenameForm name={season.name} shown={seasonName} busy={busy} onClose={() => setRenaming(null)}
                  onRename={(name) => change(async () => rowsOf(await database.from('seasons').update({ name }).eq('id', season.id)))} />
              )}
              {periods.length === 0 && <Text size="sm" c="dimmed">{t('seasons.noDates')}</Text>}
              <Group gap="xs">
                {periods.map((period) => (
                  <Group key={period.first} gap={4} wrap="nowrap" px="xs" style={{ border: '1px solid var(--mantine-color-gray-4)', borderRadius: 4 }}>
                    <Text size="sm">{periodText(period)}</Text>
                    {mayWrite && (
                      <ActionIcon size="sm" variant="subtle" color="gray" disabled={busy} aria-label={t('seasons.removePeriod', { period: periodText(period) })}
                        onClick={() => writePeriods(season, periods.filter((other) => other !== period))}>
                        ×
                      </ActionIcon>
                    )}
                  </Group>
                ))}
              </Group>
              {mayWrite && (
                <AddDates label={t('seasons.addDates', { name: seasonName })} disabled={busy} onAdd={(period) => writePeriods(season, [...periods, period])} />
              )}
            </Stack>
          </Paper>
        );
      })}
      {mayWrite && (
        <Paper withBorder p="md" component="section" aria-label={t('seasons.addTitle')}>
          <Stack>
            <Title order={3} size="h4">{t('seasons.addTitle')}</Title>
            <Group align="flex-start" grow>
              <TextInput label={t('seasons.name')} value={name} error={tried && name.trim() === '' && t('seasons.nameProblem')}
                onChange={(event) => setName(event.currentTarget.value)} />
              <ColorInput label={t('seasons.color')} format="hex" value={color} onChange={setColor} withEyeDropper={false} />
              <DatePickerInput type="range" label={t('seasons.dates')} ariaLabels={t('picker', { returnObjects: true })} allowSingleDateInRange
                value={range} onChange={(value) => setRange(value as Range)} />
            </Group>
            <Group><Button onClick={add} loading={busy}>{t('seasons.add')}</Button></Group>
          </Stack>
        </Paper>
      )}
    </Stack>
  );
}

const picked = ([first, last]: Range): Period[] => (first && last ? [{ first, last }] : []);

/** A range picker that adds the dates once the last day is picked, then is empty again. */
function AddDates({ label, disabled, onAdd }: { label: string; disabled: boolean; onAdd: (period: Period) => void }) {
  const { t } = useTranslation('businessSettings');
  const [range, setRange] = useState<Range>([null, null]);
  return (
    <DatePickerInput type="range" label={label} ariaLabels={t('picker', { returnObjects: true })} allowSingleDateInRange maw={320}
      value={range} disabled={disabled} onChange={(value) => {
        const [period] = picked(value as Range);
        setRange(period ? [null, null] : value as Range);
        if (period) onAdd(period);
      }} />
  );
}

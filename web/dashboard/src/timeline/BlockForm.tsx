/** Adds a blocked period to a unit: the days are no longer bookable (the database refuses an overlap: 409). */
import { useState, type FormEvent } from 'react';
import { Button, Group, Select, Stack, TextInput } from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import { useTranslation } from 'react-i18next';
import { database, rowsOf } from '../api/database';
import { addDays } from '../common/dates';
import { ErrorAlert } from '../common/ErrorAlert';
import { useWorkspace } from '../shell/context';
import { explainOverlap } from './overlap';
import type { Unit } from './queries';

export interface BlockFormProps {
  units: Unit[];
  /** `end` exclusive (the first free day), as calendar events store it. */
  initial: { unitId: string | null; start: string | null; end: string | null };
  onClose: () => void;
  onSaved: () => void;
}

export function BlockForm({ units, initial, onClose, onSaved }: BlockFormProps) {
  const [unitId, setUnitId] = useState<string | null>(initial.unitId);
  // The picker shows the last blocked day (inclusive); the event stores the day after it.
  const [range, setRange] = useState<[string | null, string | null]>([initial.start, initial.end ? addDays(initial.end, -1) : null]);
  const [title, setTitle] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const { can, format } = useWorkspace();
  const { t } = useTranslation(['calendar', 'common']);

  const save = async (event: FormEvent) => {
    event.preventDefault();
    const [start, last] = range;
    if (!unitId || !start || !last) return setError({ code: '', message: t('block.incomplete') });
    setBusy(true);
    setError(null);
    try {
      rowsOf(await database.from('calendar_events').insert({
        product_id: unitId, type: 'blocked period', status: 'CONFIRMED', start_date: start, end_date: addDays(last, 1), title: title || t('block.defaultTitle'), origin: 'admin',
      }));
      onSaved();
    } catch (failure) {
      setError(await explainOverlap(failure, unitId, start, addDays(last, 1), can, format.date).catch(() => failure));
      setBusy(false);
    }
  };

  return (
    <form onSubmit={save}>
      <Stack>
        <ErrorAlert error={error} title={t('block.failed')} />
        <Select label={t('block.unit')} required data={units.map((unit) => ({ value: unit.id, label: unit.name }))} value={unitId} onChange={setUnitId} />
        <DatePickerInput type="range" label={t('block.days')} required value={range} onChange={(value) => setRange(value as [string | null, string | null])}
          allowSingleDateInRange />
        <TextInput label={t('block.title')} placeholder={t('block.defaultTitle')} value={title} onChange={(event) => setTitle(event.currentTarget.value)} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>{t('common:cancel')}</Button>
          <Button type="submit" loading={busy}>{t('block.submit')}</Button>
        </Group>
      </Stack>
    </form>
  );
}

/** A unit's details, edited with the same fields as "Add unit" and saved with PATCH /v1/products. */
import { useState } from 'react';
import { Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { database, rowsOf } from '../api/database';
import { ErrorAlert } from '../common/ErrorAlert';
import { useWorkspace } from '../shell/context';
import { fieldErrors } from '../common/field-errors';
import { DETAIL_COLUMNS, detailsBody, detailsOf, type StoredDetails, type UnitDetails } from './unit-details';
import { UnitDetailsFields } from './UnitDetailsFields';

export function DetailsSection({ unit, onSaved }: { unit: StoredDetails; onSaved: () => void }) {
  const { can } = useWorkspace();
  const { t } = useTranslation('units');
  const [details, setDetails] = useState<UnitDetails>(() => detailsOf(unit));
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState(false);
  const errors = fieldErrors(error, DETAIL_COLUMNS);
  const changed = JSON.stringify(details) !== JSON.stringify(detailsOf(unit));

  const save = async () => {
    setBusy(true);
    setError(null);
    setSaved(false);
    try {
      rowsOf(await database.from('products').update(detailsBody(details, unit)).eq('id', unit.id));
      setSaved(true);
      onSaved();
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card withBorder component="section" aria-label={t('details.title')}>
      <form onSubmit={(event) => { event.preventDefault(); void save(); }}>
        <Stack>
          <Title order={3} size="h4">{t('details.title')}</Title>
          <ErrorAlert error={errors.general} title={t('details.failed')} />
          {/* A refusal is about what was sent: editing again clears it. */}
          <UnitDetailsFields value={details} onChange={(value) => { setDetails(value); setError(null); }} errors={errors.fields} />
          {can('products', 'write') && (
            <Group>
              <Button type="submit" loading={busy} disabled={!changed}>{t('details.save')}</Button>
              {saved && !changed && <Text size="sm" role="status">{t('details.saved')}</Text>}
            </Group>
          )}
        </Stack>
      </form>
    </Card>
  );
}

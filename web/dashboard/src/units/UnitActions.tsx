/**
 * Duplicate a unit (its copy opens) or archive it (`deleted_at`: it leaves the unit lists and guests can no longer
 * book it; its bookings stay) — and restore an archived one.
 */
import { useState } from 'react';
import { Button, Group } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { database, rowsOf } from '../api/database';
import { ConfirmButton } from '../common/ConfirmButton';
import { ErrorAlert } from '../common/ErrorAlert';
import { navigate } from '../common/router';
import { duplicateUnit } from './duplicate-unit';

export function UnitActions({ unitId, archived, onChanged }: { unitId: string; archived: boolean; onChanged: () => void }) {
  const { t } = useTranslation('units');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const act = async (action: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await action();
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };
  const archive = (deletedAt: string | null) => act(async () => {
    rowsOf(await database.from('products').update({ deleted_at: deletedAt }).eq('id', unitId));
    onChanged();
  });
  return (
    <Group gap="xs" align="flex-start">
      <ErrorAlert error={error} title={t('actions.failed')} />
      <Button variant="default" loading={busy} onClick={() => void act(async () => navigate(`/units/${await duplicateUnit(unitId)}`))}>{t('actions.duplicate')}</Button>
      {archived
        ? <Button variant="default" loading={busy} onClick={() => void archive(null)}>{t('actions.restore')}</Button>
        : <ConfirmButton question={t('actions.archiveQuestion')} loading={busy} onConfirm={() => void archive(new Date().toISOString())}>{t('actions.archive')}</ConfirmButton>}
    </Group>
  );
}

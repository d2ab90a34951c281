/** Exports every booking the filters match (not only the page shown) as a CSV file, in the list's order. */
import { useState } from 'react';
import { Button } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useWorkspace } from '../../shell/context';
import { listColumns } from './columns';
import { download, toCsv } from './csv';
import { listAllBookings, type ListFilters } from './list-query';

/** `onError`: the export failed (null when it starts again). */
export function ExportButton({ filters, onError }: { filters: ListFilters; onError: (error: unknown) => void }) {
  const { t } = useTranslation('bookings');
  const { can, format, locale } = useWorkspace();
  const [busy, setBusy] = useState(false);
  const exportAll = async () => {
    setBusy(true);
    onError(null);
    try {
      const rows = await listAllBookings(filters, can);
      const columns = listColumns(t, can, format, locale);
      download(`bookings-${format.today()}.csv`, toCsv([columns.map((column) => column.header), ...rows.map((row) => columns.map((column) => column.text(row)))]));
    } catch (error) {
      onError(error);
    }
    setBusy(false);
  };
  return <Button variant="default" loading={busy} onClick={exportAll}>{t('list.export')}</Button>;
}

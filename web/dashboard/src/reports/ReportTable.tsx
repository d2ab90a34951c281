/** A table of the reports page with its CSV export, both from one list of columns (./csv.ts). */
import { Button, Group, Table, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { toCsv, type ReportColumn } from './csv';

function download(fileName: string, csv: string) {
  const url = URL.createObjectURL(new Blob([csv], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.click();
  // After the click's download has started.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

export function ReportTable<Row>({ title, columns, rows, rowKey, fileName }: {
  title: string;
  columns: readonly ReportColumn<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row) => string;
  fileName: string;
}) {
  const { t } = useTranslation('reports');
  return (
    <section aria-label={title}>
      <Group justify="space-between" mb="xs">
        <Title order={3}>{title}</Title>
        <Button size="xs" variant="default" onClick={() => download(fileName, toCsv(columns, rows))}>{t('tables.export')}</Button>
      </Group>
      <Table.ScrollContainer minWidth={720}>
        <Table striped aria-label={title}>
          <Table.Thead>
            <Table.Tr>
              {columns.map((column) => <Table.Th key={column.label} style={column.numeric ? { textAlign: 'right' } : undefined}>{column.label}</Table.Th>)}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((row) => (
              <Table.Tr key={rowKey(row)} data-row={rowKey(row)}>
                {columns.map((column) => (
                  <Table.Td key={column.label} style={column.numeric ? { textAlign: 'right' } : undefined}>{column.shown(row)}</Table.Td>
                ))}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </section>
  );
}

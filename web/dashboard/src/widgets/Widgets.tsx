/**
 * Widgets: the booking widgets websites embed, each with the units it offers and where it may be used; **Create
 * widget** opens the form, a widget's name its page (embed code, publishable keys, preview, analytics).
 */
import { useState } from 'react';
import { Anchor, Badge, Button, Group, Loader, Modal, Stack, Table, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { loadUnitNames } from '../api/units';
import { ErrorAlert } from '../common/ErrorAlert';
import { localized } from '../common/format';
import { Link, navigate } from '../common/router';
import { useLoad } from '../common/use-load';
import { useWorkspace } from '../shell/context';
import { mayEditWidgets } from './permissions';
import { createWidget, loadWidgets } from './queries';
import { emptyDraft } from './widget-draft';
import { WidgetForm } from './WidgetForm';

export function Widgets() {
  const { t } = useTranslation(['widgets', 'common']);
  const { can, locale } = useWorkspace();
  const mayEdit = mayEditWidgets(can);
  const widgets = useLoad(loadWidgets, []);
  const units = useLoad(loadUnitNames, []);
  const [creating, setCreating] = useState(false);
  const unitName = (id: string) => localized(units.data?.find((unit) => unit.id === id)?.name, locale);

  return (
    <Stack>
      <Title order={2}>{t('title')}</Title>
      <Text size="sm">{t('intro')}</Text>
      {mayEdit && (
        <Group><Button onClick={() => setCreating(true)} disabled={!units.data}>{t('create')}</Button></Group>
      )}
      <ErrorAlert error={widgets.error ?? units.error} title={t('loadFailed')} />
      {widgets.loading && !widgets.data && <Loader size="sm" role="status" aria-label={t('loading')} />}
      {widgets.data && widgets.data.length > 0 && (
        <Table.ScrollContainer minWidth={640}>
          <Table aria-label={t('title')}>
            <Table.Thead>
              <Table.Tr><Table.Th>{t('columns.name')}</Table.Th><Table.Th>{t('columns.units')}</Table.Th><Table.Th>{t('columns.origins')}</Table.Th></Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {widgets.data.map((widget) => (
                <Table.Tr key={widget.id}>
                  <Table.Td><Anchor component={Link} to={`/widgets/${widget.id}`}>{widget.name}</Anchor></Table.Td>
                  <Table.Td>{[...widget.widget_listings].sort((a, b) => a.order - b.order).map((listing) => unitName(listing.product_id)).join(', ') || t('noUnits')}</Table.Td>
                  <Table.Td>
                    <Group gap={4}>
                      {widget.allowed_origins.map((origin) => <Badge key={origin} variant="outline" color="dark" tt="none">{origin}</Badge>)}
                      {widget.allowed_origins.length === 0 && <Text size="sm" c="dimmed">{t('noOrigins')}</Text>}
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {widgets.data?.length === 0 && <Text c="dimmed">{t('none')}</Text>}
      {creating && units.data && (
        <Modal opened onClose={() => setCreating(false)} title={t('create')} size="lg" closeButtonProps={{ 'aria-label': t('common:close') }}>
          <WidgetForm initial={emptyDraft()} units={units.data} submitLabel={t('create')} errorTitle={t('createFailed')}
            onSubmit={async (draft) => navigate(`/widgets/${await createWidget(draft)}`)} />
        </Modal>
      )}
    </Stack>
  );
}

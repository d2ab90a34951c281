/**
 * The unit as guests see it in the widget: the real widget, loaded from /widget.js, in its preview mode — it reads
 * this unit's catalogue with the member's session (GET /admin/api/unit-preview/<id>), no publishable key
 * (docs/dashboard.md#unit-preview). Saved changes show after **Refresh preview**.
 */
import { useState } from 'react';
import { Box, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { CATALOGUE_TABLES } from '../../../../src/widget/catalogue-queries.js';
import { ErrorAlert } from '../common/ErrorAlert';
import { useLoad } from '../common/use-load';
import { useWorkspace } from '../shell/context';
import { loadWidgetScript } from './widget-script';

/** Whether the member may read every table the preview's catalogue is made of (the server checks the same). */
export function useMayPreview(): boolean {
  const { can } = useWorkspace();
  return CATALOGUE_TABLES.every((table) => can(table));
}

export function UnitPreview({ unitId }: { unitId: string }) {
  const { t } = useTranslation('units');
  const script = useLoad(loadWidgetScript, []);
  const [shown, setShown] = useState(0);
  return (
    <Card withBorder component="section" aria-label={t('preview.title')}>
      <Stack>
        <Group justify="space-between">
          <Title order={3} size="h4">{t('preview.title')}</Title>
          <Button size="xs" variant="outline" onClick={() => setShown((count) => count + 1)}>{t('preview.refresh')}</Button>
        </Group>
        <Text size="sm" c="dimmed">{t('preview.intro')}</Text>
        <ErrorAlert error={script.error} title={t('preview.title')} />
        {!script.loading && !script.error && (
          <Box maw={560}><staykit-widget key={shown} preview={unitId} /></Box>
        )}
      </Stack>
    </Card>
  );
}

/**
 * The widget as a website shows it: its iframe page `/w/<widget id>` framed here — the real widget with its saved
 * units, colours and first active key. Same origin, so the dashboard's Content-Security-Policy (frames from 'self')
 * and the page's (`frame-ancestors 'self'` and the allowed origins) both let it show. It is the live widget: loading
 * it counts a view and a booking made in it is real, so it loads only when asked (docs/dashboard.md#widgets).
 */
import { useState } from 'react';
import { Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';

export function WidgetPreview({ widgetId, hasKey }: { widgetId: string; hasKey: boolean }) {
  const { t } = useTranslation('widgets');
  const [shown, setShown] = useState(0);
  return (
    <Card withBorder component="section" aria-label={t('preview.title')}>
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={3} size="h4">{t('preview.title')}</Title>
          {hasKey && (
            <Button size="xs" variant="outline" onClick={() => setShown((count) => count + 1)}>
              {shown === 0 ? t('preview.show') : t('preview.refresh')}
            </Button>
          )}
        </Group>
        <Text size="sm" c="dimmed">{hasKey ? t('preview.intro') : t('preview.noKey')}</Text>
        {hasKey && shown > 0 && (
          <iframe key={shown} title={t('preview.frameTitle')} src={`/w/${encodeURIComponent(widgetId)}`}
            style={{ width: '100%', maxWidth: 640, height: 820, border: 0 }} />
        )}
      </Stack>
    </Card>
  );
}

/**
 * One widget's page: how to put it on a website (the snippet and the iframe, each with a copy button), its
 * publishable keys, its settings, a live preview, its analytics per day, and **Delete widget**.
 */
import { useState } from 'react';
import { Anchor, Button, Card, Group, Loader, Modal, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { loadUnitNames } from '../api/units';
import { ErrorAlert } from '../common/ErrorAlert';
import { Link, navigate } from '../common/router';
import { useLoad } from '../common/use-load';
import { useWorkspace } from '../shell/context';
import { activeKey } from './embed-code';
import { EmbedCode } from './EmbedCode';
import { mayEditWidgets, mayManageWidgets, mayReadAnalytics } from './permissions';
import { PublishableKeys } from './PublishableKeys';
import { deleteWidget, loadKeys, loadWidget, updateWidget, type WidgetRow } from './queries';
import { draftOf } from './widget-draft';
import { WidgetAnalytics } from './WidgetAnalytics';
import { WidgetForm } from './WidgetForm';
import { WidgetPreview } from './WidgetPreview';

export function WidgetPage({ widgetId }: { widgetId: string }) {
  const { t } = useTranslation('widgets');
  const { can } = useWorkspace();
  const [mayEdit, mayManage, mayAnalyse] = [mayEditWidgets(can), mayManageWidgets(can), mayReadAnalytics(can)];
  const widget = useLoad(() => loadWidget(widgetId), [widgetId]);
  const keys = useLoad(() => loadKeys(widgetId), [widgetId]);

  return (
    <Stack>
      <Anchor component={Link} to="/widgets" size="sm">{t('backToList')}</Anchor>
      <ErrorAlert error={widget.error} title={t('loadFailed')} />
      {widget.loading && !widget.data && <Loader size="sm" role="status" aria-label={t('loading')} />}
      {widget.data === null && <Text>{t('notFound')}</Text>}
      {widget.data && (
        <>
          <Title order={2}>{widget.data.name}</Title>
          <EmbedCode widget={widget.data} keys={keys} />
          <PublishableKeys widgetId={widgetId} keys={keys} />
          {mayEdit && <SettingsSection widget={widget.data} onSaved={widget.reload} />}
          <WidgetPreview widgetId={widgetId} hasKey={activeKey(keys.data ?? []) !== undefined} />
          {mayAnalyse && <WidgetAnalytics widgetId={widgetId} />}
          {mayManage && <DeleteWidget widget={widget.data} />}
        </>
      )}
    </Stack>
  );
}

function SettingsSection({ widget, onSaved }: { widget: WidgetRow; onSaved: () => void }) {
  const { t } = useTranslation('widgets');
  const units = useLoad(loadUnitNames, []);
  const [saved, setSaved] = useState(false);
  return (
    <Card withBorder component="section" aria-label={t('settings.title')}>
      <Stack gap="sm">
        <Title order={3} size="h4">{t('settings.title')}</Title>
        <ErrorAlert error={units.error} title={t('loadFailed')} />
        {units.data && (
          // Keyed by the saved row: after a save the form starts from what was written.
          <WidgetForm key={JSON.stringify(draftOf(widget))} initial={draftOf(widget)} units={units.data}
            submitLabel={t('settings.save')} errorTitle={t('settings.saveFailed')}
            onSubmit={async (draft) => { setSaved(false); await updateWidget(widget, draft); setSaved(true); onSaved(); }} />
        )}
        {saved && <Text size="sm" role="status" c="teal.9">{t('settings.saved')}</Text>}
      </Stack>
    </Card>
  );
}

function DeleteWidget({ widget }: { widget: WidgetRow }) {
  const { t } = useTranslation(['widgets', 'common']);
  const [asking, setAsking] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const remove = async () => {
    setBusy(true);
    try {
      await deleteWidget(widget.id);
      navigate('/widgets');
    } catch (failure) {
      setError(failure);
      setBusy(false);
    }
  };
  return (
    <Group>
      <Button color="red" variant="outline" onClick={() => setAsking(true)}>{t('delete.button')}</Button>
      {asking && (
        <Modal opened onClose={() => setAsking(false)} title={t('delete.question', { name: widget.name })} closeButtonProps={{ 'aria-label': t('common:close') }}>
          <Stack>
            <ErrorAlert error={error} title={t('delete.failed')} />
            <Text size="sm">{t('delete.explanation')}</Text>
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setAsking(false)}>{t('common:cancel')}</Button>
              <Button color="red" onClick={remove} loading={busy}>{t('delete.confirm')}</Button>
            </Group>
          </Stack>
        </Modal>
      )}
    </Group>
  );
}

/**
 * How to put the widget on a website: the snippet (widget.js and the element with the first active publishable
 * key) and the iframe of `/w/<widget id>`, each with a copy button, written for the address this dashboard is at.
 */
import { Alert, Button, Card, Code, CopyButton, Group, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Loaded } from '../common/use-load';
import { activeKey, embedSnippet, iframeCode } from './embed-code';
import type { PublishableKey, WidgetRow } from './queries';

export function EmbedCode({ widget, keys }: { widget: WidgetRow; keys: Loaded<PublishableKey[]> }) {
  const { t } = useTranslation('widgets');
  const server = window.location.origin;
  const key = activeKey(keys.data ?? []);
  return (
    <Card withBorder component="section" aria-label={t('embed.title')}>
      <Stack gap="sm">
        <Title order={3} size="h4">{t('embed.title')}</Title>
        {keys.data && !key && <Text size="sm" c="dimmed">{t('embed.noKey')}</Text>}
        {key && (
          <>
            <CodeToCopy label={t('embed.snippet')} copyLabel={t('embed.copySnippet')} hint={t('embed.snippetHint')} code={embedSnippet(server, key.key)} />
            <CodeToCopy label={t('embed.iframe')} copyLabel={t('embed.copyIframe')} hint={t('embed.iframeHint')} code={iframeCode(server, widget.id, widget.name)} />
          </>
        )}
        {widget.allowed_origins.length === 0 && <Alert color="orange" variant="light" p="xs">{t('embed.noOrigins')}</Alert>}
      </Stack>
    </Card>
  );
}

/** `copyLabel` is the button's text ("Copy snippet"): two copy buttons on the page must say which is which. */
function CodeToCopy({ label, copyLabel, hint, code }: { label: string; copyLabel: string; hint: string; code: string }) {
  const { t } = useTranslation('common');
  return (
    <Stack gap={4} role="group" aria-label={label}>
      <Text fw={600} size="sm">{label}</Text>
      <Text size="sm" c="dimmed">{hint}</Text>
      <Group wrap="nowrap" gap="xs" align="flex-start">
        <Code block style={{ flex: 1, whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>{code}</Code>
        <CopyButton value={code}>
          {({ copied, copy }) => <Button onClick={copy} variant={copied ? 'filled' : 'default'}>{copied ? t('copied') : copyLabel}</Button>}
        </CopyButton>
      </Group>
    </Stack>
  );
}

/** A part of the booking page: its title, and its content — or why it is not shown (no permission, nothing there). */
import { Card, Group, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';

interface SectionProps {
  title: string;
  shown: boolean;
  empty: boolean;
  /** Buttons beside the title (shown when the section is). */
  actions?: React.ReactNode;
  /** Shown under the title whether or not the section is empty (e.g. a form to add to it). */
  footer?: React.ReactNode;
  children?: React.ReactNode;
}

export function Section({ title, shown, empty, actions, footer, children }: SectionProps) {
  const { t } = useTranslation(['booking', 'common']);
  return (
    <Card withBorder component="section" aria-label={title}>
      <Group justify="space-between" mb="xs" wrap="wrap">
        <Title order={3} size="h4">{title}</Title>
        {shown && actions}
      </Group>
      {!shown ? <Text size="sm" c="dimmed">{t('page.notPermitted')}</Text> : empty ? <Text size="sm" c="dimmed">{t('common:none')}</Text> : children}
      {shown && footer}
    </Card>
  );
}

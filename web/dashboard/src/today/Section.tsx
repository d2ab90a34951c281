/** A card of the Today page: its title, its rows (loading, the API's error, or "nothing"), and where it is handled. */
import type { ReactNode } from 'react';
import { Anchor, Card, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '../common/ErrorAlert';
import { Link } from '../common/router';
import type { Loaded } from '../common/use-load';

interface SectionProps<T> {
  title: string;
  loaded: Loaded<T>;
  /** What to show when the data is there but holds nothing to do. */
  empty: (data: T) => string | null;
  /** The page where these are handled; its label differs from the navigation's ("Open reports", not "Reports"). */
  handledAt?: { to: string; label: string };
  children: (data: T) => ReactNode;
}

export function Section<T>({ title, loaded, empty, handledAt, children }: SectionProps<T>) {
  const { t } = useTranslation('today');
  const nothing = loaded.data !== undefined ? empty(loaded.data) : null;
  return (
    <Card withBorder component="section" aria-label={title}>
      <Group justify="space-between" mb="xs" wrap="nowrap">
        <Title order={3} size="h4">{title}</Title>
        {handledAt && <Anchor component={Link} to={handledAt.to} size="sm">{handledAt.label}</Anchor>}
      </Group>
      <ErrorAlert error={loaded.error} title={t('section.failed', { title })} />
      {loaded.data === undefined
        ? loaded.loading && <Loader size="sm" role="status" aria-label={t('section.loading', { title })} />
        : nothing !== null ? <Text size="sm" c="dimmed">{nothing}</Text> : <Stack gap="xs">{children(loaded.data)}</Stack>}
    </Card>
  );
}

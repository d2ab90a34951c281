/** What the bar colours mean. */
import { Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import classes from './timeline.module.css';

/** The bars' kinds, each a class of timeline.module.css. */
const ENTRIES = ['CONFIRMED', 'TENTATIVE', 'blocked', 'imported', 'CANCELLED'] as const;

export function Legend() {
  const { t } = useTranslation('calendar');
  return (
    <Group gap="md" wrap="wrap" aria-label={t('legend.title')} role="list">
      {ENTRIES.map((key) => (
        <Text size="xs" key={key} role="listitem"><span className={`${classes.swatch} ${classes[key]}`} aria-hidden />{t(`legend.${key}`)}</Text>
      ))}
      <Text size="xs" role="listitem"><span className={classes.swatch} style={{ background: '#e8590c', borderRadius: '50%' }} aria-hidden />{t('legend.task')}</Text>
    </Group>
  );
}

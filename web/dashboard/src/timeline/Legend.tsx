/** What the bar colours mean. */
import { Group, Text } from '@mantine/core';
import classes from './timeline.module.css';

const ENTRIES = [
  ['CONFIRMED', 'Confirmed booking'],
  ['TENTATIVE', 'Tentative booking'],
  ['blocked', 'Blocked'],
  ['imported', 'Imported (iCal)'],
  ['CANCELLED', 'Cancelled'],
] as const;

export function Legend() {
  return (
    <Group gap="md" wrap="wrap" aria-label="Legend" role="list">
      {ENTRIES.map(([key, label]) => (
        <Text size="xs" key={key} role="listitem"><span className={`${classes.swatch} ${classes[key]}`} aria-hidden />{label}</Text>
      ))}
      <Text size="xs" role="listitem"><span className={classes.swatch} style={{ background: '#e8590c', borderRadius: '50%' }} aria-hidden />Task due</Text>
    </Group>
  );
}

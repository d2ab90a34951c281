/** A booking's status as a coloured badge, in the timeline bars' colours (each with text at WCAG AA contrast). */
import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Enums } from '../api/database';

type Status = Enums<'calendar_events_status'>;

const COLORS = {
  CONFIRMED: { background: '#1c6b48', text: '#ffffff' },
  TENTATIVE: { background: '#ffe066', text: '#2b2b2b' },
  CANCELLED: { background: '#e9ecef', text: '#343a40' },
} as const satisfies Record<Status, { background: string; text: string }>;

export function StatusBadge({ status }: { status: Status }) {
  const { t } = useTranslation();
  return <Badge color={COLORS[status].background} c={COLORS[status].text} variant="filled" data-status={status}>{t(`status.${status}`)}</Badge>;
}

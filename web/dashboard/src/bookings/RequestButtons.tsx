/**
 * The host's answer to a booking request (a tentative stay of a unit booked on request), on the booking page and on
 * Today: confirm it (its stays become confirmed, the guest's confirmation e-mail follows), or decline it (cancelled,
 * everything paid refunded).
 */
import { useState } from 'react';
import { Button, Group, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Can } from '../api/permissions';
import { ErrorAlert } from '../common/ErrorAlert';
import { cancelBooking, confirmRequest } from './queries';

/** Whether the member may answer requests: confirming writes the stay, declining cancels the booking. */
export const mayAnswerRequests = (can: Can) => can('calendar_events', 'write') && can('bookings', 'write');

type Answer = 'confirm' | 'decline';

async function answerRequest(bookingId: string, answer: Answer): Promise<void> {
  if (answer === 'confirm') await confirmRequest(bookingId);
  else await cancelBooking(bookingId, 'Request declined', 'full');
}

interface RequestButtonsProps {
  bookingId: string;
  onAnswered: () => void;
  /** The buttons' texts, e.g. "Confirm request" / "Decline request". */
  labels: Record<Answer, string>;
  /** Names the request in the buttons' accessible names where several are listed, e.g. its reference. */
  name?: string;
  size?: 'xs' | 'sm';
}

export function RequestButtons({ bookingId, onAnswered, labels, name, size = 'sm' }: RequestButtonsProps) {
  const { t } = useTranslation('booking');
  const [busy, setBusy] = useState<Answer | null>(null);
  const [error, setError] = useState<unknown>(null);
  const answer = async (kind: Answer) => {
    setBusy(kind);
    setError(null);
    try {
      await answerRequest(bookingId, kind);
      onAnswered();
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(null);
    }
  };
  const label = (kind: Answer) => (name ? `${labels[kind]} ${name}` : undefined);
  const names = { confirm: label('confirm'), decline: label('decline') };
  return (
    <Stack gap="xs">
      <ErrorAlert error={error} title={t('request.failed')} />
      <Group gap="xs" wrap="nowrap">
        <Button size={size} onClick={() => answer('confirm')} loading={busy === 'confirm'} disabled={busy !== null} aria-label={names.confirm}>{labels.confirm}</Button>
        <Button size={size} variant="default" onClick={() => answer('decline')} loading={busy === 'decline'} disabled={busy !== null} aria-label={names.decline}>{labels.decline}</Button>
      </Group>
    </Stack>
  );
}

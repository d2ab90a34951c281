/** A booking's payment state as a badge (bookings list, Today page, booking page), in the reader's language. */
import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { PaymentState } from './queries';

/** Each with text at WCAG AA contrast on its background. */
const PAYMENT_COLORS: Record<PaymentState, { background: string; text: string }> = {
  paid: { background: '#d3f9d8', text: '#1b4d2b' },
  'partly paid': { background: '#fff3bf', text: '#5c4400' },
  unpaid: { background: '#ffe3e3', text: '#8a1c1c' },
  'nothing to pay': { background: '#e9ecef', text: '#343a40' },
};

export function PaymentBadge({ state }: { state: PaymentState | undefined }) {
  const { t } = useTranslation('booking');
  if (!state) return null;
  const { background, text } = PAYMENT_COLORS[state];
  return <Badge variant="filled" color={background} c={text} data-payment={state}>{t(`paymentState.${state}`)}</Badge>;
}

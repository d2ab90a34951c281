/** "New booking" on the bookings list: the booking form in a dialog, the unit and dates chosen in it; then the new booking's page. */
import { useState } from 'react';
import { Button, Modal } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { navigate } from '../../common/router';
import { useWorkspace } from '../../shell/context';
import { BookingForm } from '../../timeline/BookingForm';

export function NewBookingButton() {
  const { t } = useTranslation(['bookings', 'common']);
  const { can } = useWorkspace();
  const [open, setOpen] = useState(false);
  if (!can('bookings', 'write')) return null;
  return (
    <>
      <Button onClick={() => setOpen(true)}>{t('list.newBooking')}</Button>
      <Modal opened={open} onClose={() => setOpen(false)} title={t('list.newBooking')} size="lg" closeButtonProps={{ 'aria-label': t('common:close') }}>
        <BookingForm onClose={() => setOpen(false)} onBooked={(booking) => navigate(`/bookings/${booking.booking_id}`)} />
      </Modal>
    </>
  );
}

/**
 * "Add unit": the details of a new unit in a dialog, created with POST /v1/create-product (the API's one way to add a
 * unit), then the new unit's page opens, where photos, prices and the rest are set up. An Idempotency-Key per dialog
 * makes a double click create one unit.
 */
import { useState } from 'react';
import { Button, Group, Modal, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { requestJson } from '../api/http';
import { ErrorAlert } from '../common/ErrorAlert';
import { navigate } from '../common/router';
import { useWorkspace } from '../shell/context';
import { fieldErrors } from '../common/field-errors';
import { DETAIL_COLUMNS, detailsBody, newUnitDetails, type UnitDetails } from './unit-details';
import { UnitDetailsFields } from './UnitDetailsFields';

export function AddUnit() {
  const { session } = useWorkspace();
  const { t } = useTranslation(['units', 'common']);
  const [open, setOpen] = useState(false);
  const [details, setDetails] = useState<UnitDetails>(() => newUnitDetails(session.organization));
  const [key, setKey] = useState(() => crypto.randomUUID());
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const errors = fieldErrors(error, DETAIL_COLUMNS);

  const start = () => {
    setDetails(newUnitDetails(session.organization));
    setKey(crypto.randomUUID());
    setError(null);
    setOpen(true);
  };
  const create = async () => {
    setBusy(true);
    setError(null);
    try {
      const created = await requestJson<{ id: string }>('POST', '/v1/create-product', detailsBody(details), { 'Idempotency-Key': key });
      navigate(`/units/${created.id}`);
    } catch (failure) {
      setError(failure);
      // The same key with another body is refused (SK621): a corrected form is a new request.
      setKey(crypto.randomUUID());
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Button onClick={start}>{t('add.open')}</Button>
      <Modal opened={open} onClose={() => setOpen(false)} title={t('add.title')} size="lg" closeButtonProps={{ 'aria-label': t('common:close') }}>
        <form onSubmit={(event) => { event.preventDefault(); void create(); }}>
          <Stack>
            <ErrorAlert error={errors.general} title={t('add.failed')} />
            {/* A refusal is about what was sent: editing again clears it. */}
            <UnitDetailsFields value={details} onChange={(value) => { setDetails(value); setError(null); }} errors={errors.fields} />
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setOpen(false)}>{t('common:cancel')}</Button>
              <Button type="submit" loading={busy}>{t('add.create')}</Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </>
  );
}

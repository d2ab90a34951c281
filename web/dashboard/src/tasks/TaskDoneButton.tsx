/**
 * Marks a task (of a booking, or a to-do) done or open again — a big target on a phone. The task's label follows the
 * button's words in its accessible name, so a list of them reads "Mark done: Cleaning", not "Mark done" repeated.
 */
import { useState } from 'react';
import { Button } from '@mantine/core';
import { useTranslation } from 'react-i18next';

export interface TaskDoneButtonProps {
  task: { label: string; done: boolean };
  /** Writes the new state. */
  setDone: (done: boolean) => Promise<void>;
  onChanged: () => void;
  onError: (error: unknown) => void;
}

export function TaskDoneButton({ task, setDone, onChanged, onError }: TaskDoneButtonProps) {
  const { t } = useTranslation('tasks');
  const [busy, setBusy] = useState(false);
  const toggle = async () => {
    setBusy(true);
    try {
      await setDone(!task.done);
      onChanged();
    } catch (error) {
      onError(error);
    } finally {
      setBusy(false);
    }
  };
  return task.done
    ? <Button variant="subtle" size="sm" loading={busy} onClick={() => void toggle()} aria-label={t('task.reopenLabel', { task: task.label })}>{t('task.reopen')}</Button>
    : <Button size="sm" loading={busy} onClick={() => void toggle()} aria-label={t('task.markDoneLabel', { task: task.label })}>{t('task.markDone')}</Button>;
}

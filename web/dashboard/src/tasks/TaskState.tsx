/** Whether a task is open or done, in words and a mark (not colour alone). */
import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';

const CHECK_MARK = '✓';

export function TaskState({ done }: { done: boolean }) {
  const { t } = useTranslation('tasks');
  return done
    ? <Badge color="green" variant="light" data-task-state="done">{CHECK_MARK} {t('task.done')}</Badge>
    : <Badge color="gray" variant="outline" data-task-state="open">{t('task.open')}</Badge>;
}

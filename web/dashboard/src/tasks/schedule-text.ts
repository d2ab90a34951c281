/** A task's moment in words, "2 h after departure", as the unit's tasks and the templates show it. */
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import type { Schedule } from './queries';

export function useScheduleText(): (schedule: Schedule, offsetMinutes: number) => string {
  const { t } = useTranslation('tasks');
  return useCallback((schedule, offsetMinutes) => t('when', { hours: offsetMinutes / 60, schedule: t(`schedule.${schedule}`) }), [t]);
}

/**
 * Today: the manager's day at a glance — arrivals and departures of today and tomorrow, stays in progress, booking
 * requests to answer, overdue payments, tasks due today, iCal sync problems, and this month against last year. "Today"
 * is the organization's (its time zone). Each section is shown, and its data asked for, only when the member may
 * read it (./sections.ts).
 */
import { SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useWorkspace } from '../shell/context';
import { mayReadToday, visibleSections } from './sections';
import { StaySections } from './StaySections';
import { OverduePayments, Requests, SyncProblems, TasksDueToday, ThisMonth } from './WorkSections';

export function Today() {
  const { t } = useTranslation('today');
  const { can, format } = useWorkspace();
  const shown = visibleSections(can);
  return (
    <Stack>
      <Title order={2}>{t('title')}</Title>
      <Text c="dimmed" size="sm">{format.date(format.today())}</Text>
      {!mayReadToday(can) && <Text>{t('nothingReadable')}</Text>}
      {shown.stays && <StaySections />}
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        {shown.requests && <Requests />}
        {shown.overduePayments && <OverduePayments />}
        {shown.tasks && <TasksDueToday />}
        {shown.syncProblems && <SyncProblems />}
        {shown.month && <ThisMonth />}
      </SimpleGrid>
    </Stack>
  );
}

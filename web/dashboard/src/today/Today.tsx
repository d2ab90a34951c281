/**
 * Today: the manager's day at a glance — arrivals and departures of today and tomorrow, stays in progress, booking
 * requests to answer, overdue payments, tasks due today, iCal sync problems, and this month against last year. "Today"
 * is the organization's (its time zone). Each section is shown, and its data asked for, only when the member may
 * read it (./sections.ts).
 */
import { SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useWorkspace } from '../shell/context';
import { mayReadToday, TODAY_SECTIONS } from './sections';
import { StaySections } from './StaySections';
import { OverduePayments, Requests, SyncProblems, TasksDueToday, ThisMonth } from './WorkSections';

export function Today() {
  const { can, format } = useWorkspace();
  const shown = (section: keyof typeof TODAY_SECTIONS) => TODAY_SECTIONS[section](can);
  return (
    <Stack>
      <Title order={2}>Today</Title>
      <Text c="dimmed" size="sm">{format.date(format.today())}</Text>
      {!mayReadToday(can) && <Text>Your permissions do not include anything this page shows.</Text>}
      {shown('stays') && <StaySections />}
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        {shown('requests') && <Requests />}
        {shown('overduePayments') && <OverduePayments />}
        {shown('tasks') && <TasksDueToday />}
        {shown('syncProblems') && <SyncProblems />}
        {shown('month') && <ThisMonth />}
      </SimpleGrid>
    </Stack>
  );
}

/** The page for a path inside /admin. */
import { Text, Title } from '@mantine/core';
import { match } from '../common/router';
import { BookingPage } from '../bookings/BookingPage';
import { BookingsList } from '../bookings/BookingsList';
import { ApiKeys } from '../settings/ApiKeys';
import { BookingTerms } from '../settings/BookingTerms';
import { EmailTemplates } from '../settings/EmailTemplates';
import { IcalFeeds } from '../settings/IcalFeeds';
import { Members } from '../settings/Members';
import { Notifications } from '../settings/Notifications';
import { Webhooks } from '../settings/Webhooks';
import { Timeline } from '../timeline/Timeline';
import { UnitPage } from '../units/UnitPage';
import { Units } from '../units/Units';

export function Page({ path }: { path: string }) {
  if (path === '/') return <Timeline />;
  const routes: [string, (params: Record<string, string>) => React.ReactNode][] = [
    ['/bookings', () => <BookingsList />],
    ['/bookings/:id', ({ id }) => <BookingPage bookingId={id!} key={id} />],
    ['/units', () => <Units />],
    ['/units/:id', ({ id }) => <UnitPage unitId={id!} key={id} />],
    ['/settings/keys', () => <ApiKeys />],
    ['/settings/webhooks', () => <Webhooks />],
    ['/settings/templates', () => <EmailTemplates />],
    ['/settings/ical', () => <IcalFeeds />],
    ['/settings/members', () => <Members />],
    ['/settings/terms', () => <BookingTerms />],
    ['/settings/notifications', () => <Notifications />],
  ];
  for (const [pattern, render] of routes) {
    const params = match(pattern, path);
    if (params) return render(params);
  }
  return (
    <>
      <Title order={2}>Page not found</Title>
      <Text>There is no dashboard page at {path}.</Text>
    </>
  );
}

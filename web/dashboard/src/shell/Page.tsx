/** The page for a path inside /admin (./pages.tsx), or "page not found". */
import { Text, Title } from '@mantine/core';
import { match } from '../common/router';
import { PAGES } from './pages';

export function Page({ path }: { path: string }) {
  for (const page of PAGES) {
    const params = match(page.path, path);
    if (params) return page.render(params);
  }
  return (
    <>
      <Title order={2}>Page not found</Title>
      <Text>There is no dashboard page at {path}.</Text>
    </>
  );
}

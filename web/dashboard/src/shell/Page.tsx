/** The page for a path inside /admin (./pages.tsx), or "page not found". */
import { Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { match } from '../common/router';
import { PAGES } from './pages';

export function Page({ path }: { path: string }) {
  const { t } = useTranslation('shell');
  for (const page of PAGES) {
    const params = match(page.path, path);
    if (params) return page.render(params);
  }
  return (
    <>
      <Title order={2}>{t('notFound.title')}</Title>
      <Text>{t('notFound.text', { path })}</Text>
    </>
  );
}

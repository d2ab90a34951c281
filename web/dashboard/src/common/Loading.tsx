/** A page part being loaded, announced to screen readers in the reader's language. */
import { Loader } from '@mantine/core';
import { useTranslation } from 'react-i18next';

export function Loading() {
  const { t } = useTranslation();
  return <Loader size="sm" role="status" aria-label={t('loading')} />;
}

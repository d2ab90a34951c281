/** The navigation's count of unread guest messages; nothing when there are none (or the count cannot be read). */
import { useEffect, useState } from 'react';
import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { onInboxChanged } from './inbox-changes';
import { unreadCount } from './queries';

export function UnreadBadge() {
  const { t } = useTranslation('inbox');
  const [count, setCount] = useState(0);
  useEffect(() => {
    let mounted = true;
    // A count that cannot be read shows no badge: the inbox page itself says what went wrong.
    const recount = () => void unreadCount().then((value) => mounted && setCount(value), () => mounted && setCount(0));
    recount();
    // Counted again whenever a page reads or unreads messages.
    const unsubscribe = onInboxChanged(recount);
    return () => {
      mounted = false;
      unsubscribe();
    };
  }, []);
  if (count === 0) return null;
  return <Badge size="sm" color="red" aria-label={t('unread', { count })} data-testid="inbox-unread">{count}</Badge>;
}

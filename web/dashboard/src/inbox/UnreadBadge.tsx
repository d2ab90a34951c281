/** The navigation's count of unread guest messages; nothing when there are none (or the count cannot be read). */
import { useEffect, useState } from 'react';
import { Badge } from '@mantine/core';
import { useLoad } from '../common/use-load';
import { onInboxChanged } from './inbox-changes';
import { unreadCount } from './queries';

export function UnreadBadge() {
  // Counted again whenever a page reads or unreads messages.
  const [round, setRound] = useState(0);
  useEffect(() => onInboxChanged(() => setRound((value) => value + 1)), []);
  const count = useLoad(unreadCount, [round]);
  if (!count.data) return null;
  return <Badge size="sm" color="red" aria-label={`${count.data} unread`} data-testid="inbox-unread">{count.data}</Badge>;
}

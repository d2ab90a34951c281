/** The pages a member sees in the navigation (./pages.tsx), by what their permissions let them read. */
import type { ReactNode } from 'react';
import type { Can } from '../api/permissions';
import { PAGES, type NavigationLabel } from './pages';

export interface NavigationItem {
  to: string;
  label: NavigationLabel;
  /** Shown beside the label, e.g. the inbox's unread count. */
  badge?: () => ReactNode;
}

export function navigationFor(can: Can): NavigationItem[] {
  return PAGES.flatMap((page) => (page.navigation?.visible(can) ? [{ to: page.path, label: page.navigation.label, badge: page.navigation.badge }] : []));
}

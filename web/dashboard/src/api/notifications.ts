/** The signed-in member's e-mail notifications (server: src/dashboard/notification-routes.ts). */
import { requestJson } from './http';

export interface MyNotifications {
  notify: string[];
  /** False while the member follows their role's default. */
  chosen: boolean;
  /** Every notification there is (the server's list). */
  available: string[];
}

export const loadMyNotifications = () => requestJson<MyNotifications>('GET', '/admin/api/my-notifications');
export const saveMyNotifications = (notify: string[] | null) => requestJson<MyNotifications>('PUT', '/admin/api/my-notifications', { notify });

/** What a member may do on the widgets page, from their scopes (the server and the database hold the same lines). */
import type { Can } from '../api/permissions';

/** Creating and changing a widget writes the widget and its listed units. */
export const mayEditWidgets = (can: Can) => can('widgets', 'write') && can('widget_listings', 'write');

/** Deleting a widget, and creating or revoking its publishable keys (`widgets:write`, src/widget/bodies.ts). */
export const mayManageWidgets = (can: Can) => can('widgets', 'write');

export const mayReadAnalytics = (can: Can) => can('widget_analytics');

/** Who has the task board (/tasks): it assigns tasks to members, so it needs them; others have their own list. */
import type { Can } from '../api/permissions';

export const mayUseTaskBoard = (can: Can) => can('calendar_event_tasks', 'write') && can('members');

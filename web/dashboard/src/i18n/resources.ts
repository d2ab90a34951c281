/**
 * Every namespace of the dashboard's words, one per feature, each defined beside its pages (`<feature>/messages.ts`).
 * This list is the one place a namespace is registered: i18next's resources and the types of `t` come from it.
 */
import { commonMessages } from '../common/messages.js';
import { shellMessages } from '../shell/messages.js';
import { tasksMessages } from '../tasks/messages.js';

export const NAMESPACES = {
  common: commonMessages,
  shell: shellMessages,
  tasks: tasksMessages,
};

export type Namespace = keyof typeof NAMESPACES;

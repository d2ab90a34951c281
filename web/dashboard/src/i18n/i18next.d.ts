// `t` knows every key of every namespace (English is the source; ./messages.ts makes the others match it).
import type { NAMESPACES } from './resources';

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'common';
    resources: { [Name in keyof typeof NAMESPACES]: (typeof NAMESPACES)[Name]['en'] };
  }
}

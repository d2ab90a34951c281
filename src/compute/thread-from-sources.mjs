// The first module of a compute thread when Staykit runs from its TypeScript sources (src/compute/pool.ts): a thread
// inherits no loader registered at run time, so tsx is registered here, before any `.ts` task module is imported.
// The compiled server (dist/) does not use this file. Its default export is never called: every task names its own.
import { register } from 'tsx/esm/api';

register();

export default function noDefaultTask() {
  throw new Error('a compute task must name its module');
}

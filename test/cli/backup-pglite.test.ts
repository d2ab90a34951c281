/** `staykit backup` and `restore` on the embedded database: the suite is test/cli/support/backup-suite.ts. */
import { BACKENDS } from '../support/databases.js';
import { backupSuite } from './support/backup-suite.js';

if (BACKENDS.includes('pglite')) backupSuite('pglite');

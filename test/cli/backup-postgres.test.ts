/** `staykit backup` and `restore` on PostgreSQL: the suite is test/cli/support/backup-suite.ts. */
import { BACKENDS } from '../support/databases.js';
import { backupSuite } from './support/backup-suite.js';

if (BACKENDS.includes('postgres')) backupSuite('postgres');

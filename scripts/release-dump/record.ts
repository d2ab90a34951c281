/** What `releases/<version>.json` records of a release's database (written by ./run.ts, read by the upgrade test). */
import { fileURLToPath } from 'node:url';

export const RELEASES_DIR = fileURLToPath(new URL('../../releases/', import.meta.url));

export interface TableFingerprint {
  /** The table's columns at the release, in order: the checksum covers these, so a column added later changes nothing. */
  columns: string[];
  rows: number;
  /** md5 of the rows' text (those columns), sorted. */
  md5: string;
}

export interface ReleaseRecord {
  version: string;
  commit: string;
  lastMigration: string;
  /** Every migration the release's database has applied (numbers were not always given in order before 0.1.0). */
  migrations: string[];
  madeAt: string;
  organizationId: string;
  /** A full-access key, a read-only key and a publishable key made by the release, to use after the upgrade. */
  apiKey: string;
  readKey: string;
  publishableKey: string;
  widgetId: string;
  webhookId: string;
  dashboardLogin: { email: string; password: string };
  /** `schema.table` → fingerprint, every table of the schemas api and staykit_internal. */
  tables: Record<string, TableFingerprint>;
}

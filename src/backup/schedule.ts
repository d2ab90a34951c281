/**
 * Scheduled backups inside `staykit serve` (STAYKIT_BACKUP_INTERVAL): every interval a backup file in
 * STAYKIT_BACKUP_DIR, named by its time, and the oldest beyond STAYKIT_BACKUP_KEEP deleted. This is how a running
 * embedded server is backed up: only the server may open its data folder, and it copies the database's files between
 * two statements (src/backup/write-backup.ts). A run still going when the next is due is not doubled.
 */
import { mkdir, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Config } from '../config.js';
import type { Database } from '../db/types.js';
import { writeBackup, type BackupConfig, type BackupSummary } from './write-backup.js';

/** The scheduled backups' names: `staykit-<UTC time>.tar.gz`, which sort by time. */
const SCHEDULED_FILE = /^staykit-\d{8}T\d{6}(\d{3})?Z\.tar\.gz$/;

export function scheduledFileName(at: Date): string {
  return `staykit-${at.toISOString().replace(/[-:]/g, '').replace('.', '')}.tar.gz`;
}

export interface ScheduleOptions {
  db: Database;
  config: BackupConfig;
  folder: string;
  keep: number;
  intervalSeconds: number;
  log: { info(fields: object, message: string): void; error(fields: object, message: string): void };
  /** The clock (tests set it). */
  now?: () => Date;
}

export class ScheduledBackups {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;
  private readonly now: () => Date;

  constructor(private readonly options: ScheduleOptions) {
    this.now = options.now ?? (() => new Date());
  }

  /** Runs a backup every interval, the first one interval from now. */
  start(): this {
    this.timer = setInterval(() => {
      if (!this.running) this.running = this.run().catch(() => undefined).finally(() => (this.running = undefined));
    }, this.options.intervalSeconds * 1000);
    this.timer.unref();
    return this;
  }

  /** One backup now, then the oldest beyond `keep` deleted; logs and rethrows a failure (the older files are kept). */
  async run(): Promise<BackupSummary> {
    const { folder, log } = this.options;
    try {
      await mkdir(folder, { recursive: true, mode: 0o700 });
      const summary = await writeBackup(this.options.db, this.options.config, join(folder, scheduledFileName(this.now())), this.now());
      const deleted = await this.prune();
      log.info({ file: summary.file, bytes: summary.bytes, deleted }, 'scheduled backup written');
      return summary;
    } catch (error) {
      log.error({ err: error, folder }, 'the scheduled backup failed');
      throw error;
    }
  }

  /** Deletes the oldest scheduled backups beyond `keep`; other files in the folder are left alone. */
  private async prune(): Promise<string[]> {
    const files = (await readdir(this.options.folder)).filter((name) => SCHEDULED_FILE.test(name)).sort();
    const old = files.slice(0, Math.max(0, files.length - this.options.keep));
    for (const name of old) await rm(join(this.options.folder, name), { force: true });
    return old;
  }

  /** Stops the schedule; waits for a backup in progress. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }
}

/** Where scheduled backups go: STAYKIT_BACKUP_DIR, else DATA_DIR/backups. */
export function backupFolder(config: Pick<Config, 'backupDir' | 'dataDir'>): string {
  return config.backupDir ?? join(config.dataDir, 'backups');
}

/** The schedule STAYKIT_BACKUP_INTERVAL asks for, started; undefined when it is 0 (off). */
export function startScheduledBackups(db: Database, config: Config, log: ScheduleOptions['log']): ScheduledBackups | undefined {
  if (config.backupIntervalSeconds === 0) return undefined;
  return new ScheduledBackups({
    db, config, log, folder: backupFolder(config), keep: config.backupKeep, intervalSeconds: config.backupIntervalSeconds,
  }).start();
}

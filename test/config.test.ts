import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, dataDirInsideWorkingDirectory, defaultDataDir, LEGACY_DATA_DIR, loadConfig } from '../src/config.js';

describe('configuration', () => {
  it('has the documented defaults', () => {
    const config = loadConfig({});
    assert.equal(config.port, 3000);
    assert.equal(config.publicUrl, 'http://localhost:3000');
    assert.equal(loadConfig({ PORT: '8080' }).publicUrl, 'http://localhost:8080', 'links in e-mails follow the port');
    assert.equal(config.databaseUrl, undefined);
    assert.equal(config.dataDir, defaultDataDir({}));
    assert.equal(config.rateLimitPerMinute, 600);
    assert.equal(config.icalSyncIntervalSeconds, 900);
    assert.equal(config.worker, 'embedded');
    assert.equal(config.embeddedCompiler, 'optimizing');
    assert.equal(config.outboundAllowPrivate, false);
    assert.deepEqual(config.webhookRetrySchedule, [0, 5, 300, 1800, 7200, 18000, 36000, 50400, 72000, 86400]);
  });

  it("keeps the embedded database in the user's data folder, outside the working directory", async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'staykit-cwd-'));
    try {
      assert.equal(defaultDataDir({ HOME: '/home/ann' }, 'linux', cwd), '/home/ann/.local/share/staykit');
      assert.equal(defaultDataDir({ HOME: '/home/ann', XDG_DATA_HOME: '/data/ann' }, 'linux', cwd), '/data/ann/staykit');
      assert.equal(defaultDataDir({ HOME: '/Users/ann' }, 'darwin', cwd), '/Users/ann/Library/Application Support/Staykit');
      assert.equal(dataDirInsideWorkingDirectory(defaultDataDir({ HOME: '/home/ann' }, 'linux', cwd), cwd), false);
      assert.equal(dataDirInsideWorkingDirectory('./.staykit', cwd), true);
      assert.equal(dataDirInsideWorkingDirectory(join(cwd, 'data'), cwd), true);
      assert.equal(dataDirInsideWorkingDirectory('../elsewhere', cwd), false);
      // A database an earlier version made in ./.staykit stays where it is: an upgrade must not start an empty one.
      await mkdir(join(cwd, '.staykit'));
      await writeFile(join(cwd, '.staykit', 'PG_VERSION'), '17\n');
      assert.equal(defaultDataDir({ HOME: '/home/ann' }, 'linux', cwd), LEGACY_DATA_DIR);
    } finally {
      await rm(cwd, { recursive: true, force: true });
    }
  });

  it('reads every variable', () => {
    const config = loadConfig({
      PORT: '8080',
      DATABASE_URL: 'postgres://x@y/z',
      DATA_DIR: '/tmp/d',
      STAYKIT_OUTBOUND_ALLOW_PRIVATE: 'true',
      STAYKIT_WEBHOOK_RETRY_SCHEDULE: '0, 1,2',
      STAYKIT_WORKER: 'off',
      STAYKIT_EMBEDDED_COMPILER: 'baseline',
    });
    assert.equal(config.port, 8080);
    assert.equal(config.databaseUrl, 'postgres://x@y/z');
    assert.equal(config.dataDir, '/tmp/d');
    assert.equal(config.outboundAllowPrivate, true);
    assert.deepEqual(config.webhookRetrySchedule, [0, 1, 2]);
    assert.equal(config.worker, 'off');
    assert.equal(config.embeddedCompiler, 'baseline');
  });

  it('names the variable and the bad value when a setting is invalid', () => {
    assert.throws(() => loadConfig({ PORT: 'eighty' }), (e: Error) => e instanceof ConfigError && /PORT.*eighty/.test(e.message));
    assert.throws(() => loadConfig({ STAYKIT_WORKER: 'sometimes' }), /STAYKIT_WORKER must be one of embedded, off/);
    assert.throws(() => loadConfig({ STAYKIT_OUTBOUND_ALLOW_PRIVATE: 'yes' }), /true or false/);
    assert.throws(() => loadConfig({ STAYKIT_EMBEDDED_COMPILER: 'turbo' }), /STAYKIT_EMBEDDED_COMPILER must be one of baseline, optimizing/);
    assert.throws(() => loadConfig({ STAYKIT_WEBHOOK_RETRY_SCHEDULE: '1,x' }), /comma-separated seconds/);
    assert.throws(() => loadConfig({ STAYKIT_PUBLIC_URL: 'staykit.example' }), /STAYKIT_PUBLIC_URL must be an http or https URL, got "staykit\.example"/);
  });
  it('takes the inbox\'s settings only together with what they need: the domain its secret, the listener and webhook the domain', () => {
    const inbox = { STAYKIT_SECRET_KEY: 'long random secret', STAYKIT_INBOUND_DOMAIN: 'Reply.Rentals.Example' };
    const config = loadConfig({ ...inbox, STAYKIT_INBOUND_SMTP_PORT: '2525', STAYKIT_INBOUND_WEBHOOK_SECRET: 'hook' });
    assert.deepEqual([config.inboundDomain, config.inboundSmtpPort, config.inboundMaxBytes, config.inboundWebhookSecret],
      ['reply.rentals.example', 2525, 10 * 1024 * 1024, 'hook']);
    assert.equal(loadConfig({}).inboundSmtpPort, undefined);
    assert.throws(() => loadConfig({ STAYKIT_INBOUND_DOMAIN: 'reply.rentals.example' }), /STAYKIT_INBOUND_DOMAIN needs STAYKIT_SECRET_KEY/);
    assert.throws(() => loadConfig({ ...inbox, STAYKIT_INBOUND_DOMAIN: 'not a domain' }), /STAYKIT_INBOUND_DOMAIN must be a domain name/);
    assert.throws(() => loadConfig({ STAYKIT_INBOUND_SMTP_PORT: '2525' }), /STAYKIT_INBOUND_SMTP_PORT needs STAYKIT_INBOUND_DOMAIN/);
    assert.throws(() => loadConfig({ STAYKIT_INBOUND_WEBHOOK_SECRET: 'hook' }), /STAYKIT_INBOUND_WEBHOOK_SECRET needs STAYKIT_INBOUND_DOMAIN/);
    assert.throws(() => loadConfig({ ...inbox, STAYKIT_INBOUND_SMTP_PORT: '70000' }), /STAYKIT_INBOUND_SMTP_PORT must be a port/);
  });
});

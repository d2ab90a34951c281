import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError, loadConfig } from '../src/config.js';

describe('configuration', () => {
  it('has the documented defaults', () => {
    const config = loadConfig({});
    assert.equal(config.port, 3000);
    assert.equal(config.databaseUrl, undefined);
    assert.equal(config.dataDir, './.staykit');
    assert.equal(config.rateLimitPerMinute, 600);
    assert.equal(config.icalSyncIntervalSeconds, 900);
    assert.equal(config.worker, 'embedded');
    assert.equal(config.embeddedCompiler, 'optimizing');
    assert.equal(config.outboundAllowPrivate, false);
    assert.deepEqual(config.webhookRetrySchedule, [0, 5, 300, 1800, 7200, 18000, 36000, 50400, 72000, 86400]);
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
});

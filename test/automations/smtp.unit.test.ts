/** What an SMTP failure means for the message: retried (4xx, no answer, lost connection) or failed for good (5xx, a message nodemailer refuses). */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { classifySmtpError } from '../../src/automations/smtp.js';
import { isSingleAddress } from '../../src/automations/message-check.js';

const failure = (fields: Record<string, unknown>) => Object.assign(new Error(String(fields.message ?? 'failed')), fields);

it('retries 4xx answers, timeouts and connection failures; fails 5xx answers and unsendable messages', () => {
  assert.equal(classifySmtpError(failure({ responseCode: 421, response: '421 Service not available' })).kind, 'retry');
  assert.equal(classifySmtpError(failure({ responseCode: 450, response: '450 Mailbox busy' })).kind, 'retry');
  assert.equal(classifySmtpError(failure({ code: 'ETIMEDOUT', message: 'Timeout' })).kind, 'retry');
  assert.equal(classifySmtpError(failure({ code: 'ECONNECTION', message: 'connect ECONNREFUSED' })).kind, 'retry');
  assert.equal(classifySmtpError(failure({ responseCode: 550, response: '550 No such user' })).kind, 'failed');
  assert.equal(classifySmtpError(failure({ responseCode: 500, response: '500 Syntax error' })).kind, 'failed');
  assert.equal(classifySmtpError(failure({ code: 'EENVELOPE', message: 'No recipients defined' })).kind, 'failed');
  assert.deepEqual(classifySmtpError(failure({ code: 'ESOCKET', message: 'socket hang up' })), { kind: 'retry', response: 'ESOCKET: socket hang up', code: undefined });
});

it('accepts one address, with or without a name', () => {
  assert.equal(isSingleAddress('guest@example.com'), true);
  assert.equal(isSingleAddress('Jörg Müller <joerg@example.com>'), true);
  assert.equal(isSingleAddress('"Doe, Jane" <jane@example.com>'), true);
  assert.equal(isSingleAddress('not an address'), false);
  assert.equal(isSingleAddress('a@example.com, b@example.com'), false);
  assert.equal(isSingleAddress(''), false);
});

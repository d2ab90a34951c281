import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { checkWebhookEndpoint } from '../../src/webhooks/endpoint.js';

const publicHost = async () => [{ address: '93.184.215.14', family: 4 as const }];
const privateHost = async () => [{ address: '192.168.0.10', family: 4 as const }];
const unknownHost = async () => {
  throw Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' });
};

describe('checkWebhookEndpoint', () => {
  it('accepts a public https endpoint', async () => {
    assert.equal(await checkWebhookEndpoint('https://hooks.example/staykit', false, publicHost), undefined);
  });

  it('refuses http, private and metadata targets unless private targets are allowed', async () => {
    assert.equal((await checkWebhookEndpoint('http://hooks.example/', false, publicHost))?.kind, 'refused');
    assert.equal((await checkWebhookEndpoint('https://intranet.example/', false, privateHost))?.kind, 'refused');
    assert.equal((await checkWebhookEndpoint('https://169.254.169.254/', false))?.kind, 'refused');
    assert.equal(await checkWebhookEndpoint('http://127.0.0.1:8080/hook', true), undefined);
  });

  it('reports a host that does not resolve', async () => {
    assert.deepEqual(await checkWebhookEndpoint('https://nowhere.example/', false, unknownHost), {
      kind: 'network', message: 'cannot resolve nowhere.example: ENOTFOUND',
    });
  });
});

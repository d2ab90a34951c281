/**
 * A real S3-speaking server for tests (s3rver: the S3 REST API over a temporary folder, checking request
 * signatures), with one bucket; `url` is what STAYKIT_MEDIA_S3_URL would hold.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
// @ts-expect-error s3rver ships no types; its constructor, run() and close() are all this file uses.
import S3rver from 's3rver';

export interface S3TestServer {
  url: string;
  close(): Promise<void>;
}

interface S3rverInstance {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
}

export async function startS3Server(bucket = 'media'): Promise<S3TestServer> {
  const directory = await mkdtemp(join(tmpdir(), 'staykit-s3-'));
  const server = new (S3rver as new (options: object) => S3rverInstance)({
    address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket }],
  });
  const { port } = await server.run();
  return {
    // s3rver's own credentials: it checks each request's signature against them.
    url: `http://S3RVER:S3RVER@127.0.0.1:${port}/${bucket}`,
    async close() {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}

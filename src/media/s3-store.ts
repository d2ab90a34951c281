/**
 * The media store in an S3-compatible bucket (AWS S3, MinIO, Ceph, R2, …), for several API processes sharing one
 * set of files. `STAYKIT_MEDIA_S3_URL` names the service, the bucket and the credentials in one URL, as DATABASE_URL
 * does for the database: `https://ACCESS_KEY:SECRET@s3.eu-central-1.amazonaws.com/BUCKET?region=eu-central-1`
 * (without credentials in the URL the AWS SDK's usual sources apply: AWS_ACCESS_KEY_ID, instance roles…).
 * Addressed path-style, which every S3-compatible server understands. The URL is the operator's, not a tenant's:
 * it is not subject to the outbound (SSRF) rules of webhooks and calendar feeds.
 */
import { Readable } from 'node:stream';
import { DeleteObjectsCommand, GetObjectCommand, ListObjectsV2Command, NoSuchKey, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import type { MediaStore, StoredFile } from './store.js';
import type { S3Location } from '../config.js';

export class S3Store implements MediaStore {
  private readonly client: S3Client;

  constructor(private readonly location: S3Location) {
    this.client = new S3Client({
      endpoint: location.endpoint, region: location.region, forcePathStyle: true, credentials: location.credentials,
    });
  }

  async put(key: string, data: Uint8Array, contentType: string): Promise<void> {
    await this.client.send(new PutObjectCommand({ Bucket: this.location.bucket, Key: key, Body: data, ContentType: contentType }));
  }

  async get(key: string): Promise<StoredFile | null> {
    try {
      const answer = await this.client.send(new GetObjectCommand({ Bucket: this.location.bucket, Key: key }));
      if (!(answer.Body instanceof Readable)) throw new Error('the S3 answer has no body stream');
      return { body: answer.Body, size: answer.ContentLength ?? 0 };
    } catch (error) {
      if (error instanceof NoSuchKey) return null;
      throw error;
    }
  }

  async deleteHash(hash: string): Promise<void> {
    const listed = await this.client.send(new ListObjectsV2Command({ Bucket: this.location.bucket, Prefix: `${hash}/` }));
    const objects = (listed.Contents ?? []).map((object) => ({ Key: object.Key! }));
    if (objects.length === 0) return;
    await this.client.send(new DeleteObjectsCommand({ Bucket: this.location.bucket, Delete: { Objects: objects } }));
  }

  close(): void {
    this.client.destroy();
  }
}

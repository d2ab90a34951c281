/**
 * `STAYKIT_MEDIA_S3_URL` read: the service, the bucket and the credentials of the media bucket in one URL, as
 * DATABASE_URL is for the database (kept apart from the S3 client so reading the configuration loads no SDK).
 */
export interface S3Location {
  endpoint: string;
  bucket: string;
  region: string;
  credentials?: { accessKeyId: string; secretAccessKey: string };
}

/** STAYKIT_MEDIA_S3_URL → where and how to reach the bucket; throws a message for the configuration error. */
export function parseS3Url(raw: string): S3Location {
  const url = new URL(raw);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('must be an http(s) URL');
  const bucket = decodeURIComponent(url.pathname.split('/').filter(Boolean)[0] ?? '');
  if (!bucket) throw new Error('must name the bucket as its path: https://host/BUCKET');
  const credentials = url.username
    ? { accessKeyId: decodeURIComponent(url.username), secretAccessKey: decodeURIComponent(url.password) }
    : undefined;
  return { endpoint: `${url.protocol}//${url.host}`, bucket, region: url.searchParams.get('region') ?? 'us-east-1', credentials };
}

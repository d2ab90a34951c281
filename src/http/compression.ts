/**
 * Answers compressed for clients that ask (`Accept-Encoding: br` or `gzip`): the widget's script and catalogue reach
 * guests' phones over mobile networks, where 37 KB of script is 12 KB gzipped (docs/deployment.md#compression).
 * - Brotli at quality 4 and gzip at zlib's default: quality 11 would cost tens of milliseconds per answer.
 * - Bodies under 1 KiB stay as they are (the headers would outweigh the saving); images and PDFs are left alone
 *   (already compressed: only text, JSON, XML and CSV types are compressed).
 * - Larger bodies are compressed in libuv's threads, not on the event loop; only small ones (up to 16 KiB, well
 *   under a millisecond) are compressed in place.
 * - Request bodies are never decompressed: a compressed upload could expand past the body limits after they were
 *   checked.
 * `STAYKIT_COMPRESSION=off` leaves it to a reverse proxy that compresses.
 */
import compress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';

export async function compressAnswers(app: FastifyInstance): Promise<void> {
  await app.register(compress, {
    encodings: ['br', 'gzip'],
    threshold: 1024,
    syncThreshold: 16 * 1024,
    globalDecompression: false,
  });
}

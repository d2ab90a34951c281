/**
 * `GET /media/<hash>/<width>.<format>`: the variants of uploaded images, public like the pages that show them (the
 * widget, the guest page, e-mails), from the media store. A URL's content hash makes it immutable, so it is cached
 * for a year by browsers and CDNs; a URL of deleted media answers 404.
 */
import type { FastifyPluginAsync } from 'fastify';
import { notFound } from '../errors/catalogue.js';
import { CONTENT_TYPES, MEDIA_KEY, type MediaStore } from './store.js';

export interface MediaServeOptions {
  store: MediaStore;
}

export const mediaServeRoutes: FastifyPluginAsync<MediaServeOptions> = async (app, { store }) => {
  app.get<{ Params: { hash: string; file: string } }>('/media/:hash/:file', async (request, reply) => {
    const key = `${request.params.hash}/${request.params.file}`;
    const match = MEDIA_KEY.exec(key);
    const file = match ? await store.get(key) : null;
    if (!match || !file) throw notFound(`No media file ${key}`);
    return reply
      .header('cache-control', 'public, max-age=31536000, immutable')
      .header('content-length', String(file.size))
      // Shown by pages on other origins (the widget on a manager's site, e-mail clients).
      .header('cross-origin-resource-policy', 'cross-origin')
      .type(CONTENT_TYPES[match[3] as keyof typeof CONTENT_TYPES])
      .send(file.body);
  });
};

/**
 * The reference page at `/docs`: Swagger UI (the `swagger-ui-dist` package, served from node_modules — no CDN)
 * pointed at the OpenAPI document. "Try it out" sends requests to this server with the key entered under
 * "Authorize" (kept in the browser's local storage only).
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { FastifyInstance } from 'fastify';

const require = createRequire(import.meta.url);
const DIST = dirname(require.resolve('swagger-ui-dist/package.json'));

/** The only files served from the package, with their media types. */
const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
  'favicon-16x16.png': 'image/png',
};

function page(base: string): string {
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Staykit API reference</title>
  <link rel="stylesheet" href="${base}/assets/swagger-ui.css">
  <link rel="icon" type="image/png" href="${base}/assets/favicon-32x32.png" sizes="32x32">
  <style>body { margin: 0; } .swagger-ui .topbar { display: none; }</style>
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="${base}/assets/swagger-ui-bundle.js"></script>
  <script src="${base}/init.js"></script>
</body>
</html>
`;
}

function init(specUrl: string): string {
  return `window.ui = SwaggerUIBundle({
  url: ${JSON.stringify(specUrl)},
  dom_id: '#swagger-ui',
  deepLinking: true,
  persistAuthorization: true,
  displayRequestDuration: true,
  filter: true,
  docExpansion: 'none',
  defaultModelsExpandDepth: 0,
  presets: [SwaggerUIBundle.presets.apis],
  layout: 'BaseLayout',
});
`;
}

export interface ReferencePageOptions {
  /** Where the page lives (default `/docs`). */
  path?: string;
  /** The document it shows (default `/v1/openapi.json`). */
  specUrl?: string;
}

export function referencePage(app: FastifyInstance, options: ReferencePageOptions = {}): void {
  const base = options.path ?? '/docs';
  const html = page(base);
  const script = init(options.specUrl ?? '/v1/openapi.json');
  const cache = new Map<string, Buffer>();

  const sendPage = async (_request: unknown, reply: import('fastify').FastifyReply) =>
    reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(html);
  app.get(base, sendPage);
  app.get(`${base}/`, sendPage);
  app.get(`${base}/init.js`, async (_request, reply) =>
    reply.type('text/javascript; charset=utf-8').header('cache-control', 'no-cache').send(script));
  app.get<{ Params: { file: string } }>(`${base}/assets/:file`, async (request, reply) => {
    const type = ASSETS[request.params.file];
    if (!type) return reply.callNotFound();
    let body = cache.get(request.params.file);
    if (!body) {
      body = await readFile(join(DIST, request.params.file));
      cache.set(request.params.file, body);
    }
    return reply.type(type).header('cache-control', 'public, max-age=86400').send(body);
  });
}

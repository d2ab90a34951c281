/**
 * The reference page at `/docs`: Swagger UI (the `swagger-ui-dist` package, served from node_modules — no CDN)
 * over the OpenAPI document, one tag at a time: the top bar's "Select a definition" lists the document's tags, and
 * each loads `<document>?tag=<tag>` (tag-document.ts). Why: Swagger UI 5 takes 16–20 s to render the whole ~800 KB
 * document (OpenAPI 3.1, swagger-ui#10250) and well under a second for one tag's. "Try it out" sends requests to
 * this server with the key entered under "Authorize" (kept in the browser's local storage only); the page's
 * Content-Security-Policy keeps it to this server's scripts and this server, unframed, and Swagger UI's online
 * validator (which would send the document's address to swagger.io) is off.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { OPENAPI_30_RESOLVER_PLUGIN } from './reference-resolver.js';
import { openApiTags } from './tag-document.js';

const require = createRequire(import.meta.url);
const DIST = dirname(require.resolve('swagger-ui-dist/package.json'));

/** The only files served from the package, with their media types. */
const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'text/javascript; charset=utf-8',
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
  <style>body { margin: 0; } .swagger-ui .topbar .topbar-wrapper > .link { display: none; }</style>
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="${base}/assets/swagger-ui-bundle.js"></script>
  <script src="${base}/assets/swagger-ui-standalone-preset.js"></script>
  <script src="${base}/init.js"></script>
</body>
</html>
`;
}

/**
 * Swagger UI over one definition per tag, the first tag shown first (`?urls.primaryName=<tag>` picks another),
 * resolving with swagger-client's faster OpenAPI 3.0 resolver (reference-resolver.ts).
 */
function init(specUrl: string, tags: string[]): string {
  const urls = tags.map((tag) => ({ name: tag, url: `${specUrl}?tag=${encodeURIComponent(tag)}` }));
  return `window.ui = SwaggerUIBundle({
  urls: ${JSON.stringify(urls)},
  dom_id: '#swagger-ui',
  deepLinking: true,
  persistAuthorization: true,
  displayRequestDuration: true,
  validatorUrl: null,
  docExpansion: 'list',
  defaultModelsExpandDepth: 0,
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
  plugins: [${OPENAPI_30_RESOLVER_PLUGIN}],
  layout: 'StandaloneLayout',
});
`;
}

/**
 * The page holds the API key entered under "Authorize": it may run only this server's scripts, talk only to this
 * server ("Try it out", the documents), and may not be framed by another site (a framed page could be made to take a
 * key, or clicked on blind). Swagger UI sets inline styles and draws its icons as data: images.
 */
const PAGE_POLICY = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
  + "connect-src 'self'; object-src 'none'; frame-ancestors 'none'; base-uri 'self'; form-action 'self'";

export interface ReferencePageOptions {
  /** Where the page lives (default `/docs`). */
  path?: string;
  /** The document it shows, one tag at a time (default `/v1/openapi.json`, served by routes.ts with `?tag=`). */
  specUrl?: string;
}

export function referencePage(app: FastifyInstance, options: ReferencePageOptions = {}): void {
  const base = options.path ?? '/docs';
  const html = page(base);
  const specUrl = options.specUrl ?? '/v1/openapi.json';
  const cache = new Map<string, Buffer>();
  // The tags are the served document's own, read from it (in-process) on the page's first load.
  let script: Promise<string> | undefined;
  const initScript = () => {
    script ??= app.inject({ method: 'GET', url: specUrl }).then((response) => {
      if (response.statusCode !== 200) throw new Error(`${specUrl} answered ${response.statusCode}`);
      return init(specUrl, openApiTags(response.json()));
    });
    script.catch(() => { script = undefined; });
    return script;
  };

  const sendPage = async (_request: unknown, reply: import('fastify').FastifyReply) =>
    reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').header('content-security-policy', PAGE_POLICY).send(html);
  app.get(base, sendPage);
  app.get(`${base}/`, sendPage);
  app.get(`${base}/init.js`, async (_request, reply) =>
    reply.type('text/javascript; charset=utf-8').header('cache-control', 'no-cache').send(await initScript()));
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

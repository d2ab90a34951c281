/** The OpenAPI 3.1 document of the `/v1` API, the routes serving it, and the `/docs` reference page. */
export { buildOpenApiDocument, type OpenApiOptions } from './document.js';
export { loadCheckConstraints, parseCheck, type CheckConstraints } from './check-enums.js';
export { openApiRoutes, type OpenApiRouteOptions } from './routes.js';
export { referencePage } from './reference-page.js';

/**
 * The OpenAPI document's own operation (`GET /v1/openapi.json`, also at `/v1` and `/v1/`: routes.ts) as a route
 * definition (src/routing/route-schema.ts): its `tag` query and its answers, for the route and the document itself.
 */
import Type from 'typebox';
import { invalidBody } from '../errors/catalogue.js';
import { defineRoute } from '../routing/route-schema.js';

export const openApiDocumentRoute = defineRoute({
  method: 'GET', url: '/openapi.json', scope: undefined, security: [],
  operationId: 'openapi', summary: 'This OpenAPI document', tags: ['operations'],
  description: 'Also served at `GET /v1/`. With `tag`, only that tag\'s operations and the components they use (a complete document on its own; '
    + 'the reference page at `/docs` loads one tag at a time). An unknown tag is 404 naming the tags there are.',
  query: Type.Object({
    tag: Type.Optional(Type.String({ description: 'One of the document\'s tags, e.g. `bookings`.', examples: ['bookings'] })),
  }),
  responses: {
    200: {
      description: 'OpenAPI 3.1 document.', mediaType: 'application/openapi+json',
      schema: Type.Object({ openapi: Type.String(), paths: Type.Record(Type.String(), Type.Unknown()) }, { additionalProperties: true }),
    },
  },
  // The request-size limit applies before any route.
  errors: ['NotFound', 'UriTooLong'], invalid: invalidBody,
});

/** The change feed operation in the OpenAPI document (src/openapi/document.ts adds it to its paths and schemas). */
import { ChangePage, DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from './bodies.js';

type Json = Record<string, unknown>;

const ref = (kind: 'schemas' | 'responses', name: string): Json => ({ $ref: `#/components/${kind}/${name}` });

export const changeSchemas: Record<string, object> = { ChangePage };

export const changePaths: Record<string, Json> = {
  '/changes': {
    get: {
      tags: ['operations'],
      operationId: 'changes',
      summary: "The organization's changes since a cursor, in commit order",
      description: 'Every create, update and delete of the webhook catalogue resources the key may read '
        + '(docs/webhooks.md#change-feed). A cursor older than the retention answers 410 (SK741).',
      parameters: [
        { name: 'since', in: 'query', schema: { type: 'string' }, description: 'The `next` of a previous page.' },
        { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE } },
        { name: 'types', in: 'query', schema: { type: 'string' }, description: 'Comma-separated <resource>.created|updated|deleted.' },
      ],
      responses: {
        200: { description: 'A page of changes.', content: { 'application/json': { schema: ref('schemas', 'ChangePage') } } },
        400: ref('responses', 'BadRequest'),
        401: ref('responses', 'Unauthorized'),
        403: ref('responses', 'Forbidden'),
        410: ref('responses', 'Gone'),
      },
    },
  },
};

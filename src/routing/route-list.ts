/**
 * What each registered route is, said in its Fastify `config` (`staykitRoute`), and the list of an app's routes with
 * it: so a test can find a route of the API that is not a route definition (route-schema.ts) — one the document
 * would describe by hand, or not at all (test/openapi/route-answers.test.ts). The composition root records the list.
 */
import type { FastifyInstance, HTTPMethods } from 'fastify';

export type RouteRole =
  /** The operation of a route definition (route-schema.ts sets it). */
  | { kind: 'definition'; operationId: string }
  /** The resource engine's `/:resource` and `/rpc/:fn`: the document's table paths come from the schema cache. */
  | { kind: 'engine' }
  /** The methods a path does not offer, answered 405 with Allow before anything else. */
  | { kind: 'other-methods' };

declare module 'fastify' {
  interface FastifyContextConfig {
    staykitRoute?: RouteRole;
  }
}

export interface ListedRoute {
  methods: string[];
  /** The full URL, prefixes included (`/v1/invoices/:id`). */
  url: string;
  role: RouteRole | undefined;
}

const lists = new WeakMap<object, ListedRoute[]>();

/** Records every route `app` and its plugins register from now on; call before registering any. */
export function recordRoutes(app: FastifyInstance): void {
  const list: ListedRoute[] = [];
  lists.set(app, list);
  app.addHook('onRoute', (route) => {
    const methods = ([] as HTTPMethods[]).concat(route.method).map(String);
    list.push({ methods, url: route.url, role: route.config?.staykitRoute });
  });
}

/** The routes recorded for `app` (recordRoutes), in the order they were registered. */
export function listedRoutes(app: FastifyInstance): readonly ListedRoute[] {
  const list = lists.get(app);
  if (!list) throw new Error('the routes of this app were not recorded (recordRoutes)');
  return list;
}

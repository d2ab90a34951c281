/** Request ids, structured access logs and Prometheus metrics. */
export { observability, routeLabel, type ObservabilityOptions } from './plugin.js';
export { observabilityFastifyOptions, loggerOptions, REDACTED_PATHS } from './logger.js';
export { genReqId, isSaneRequestId, REQUEST_ID_HEADER } from './request-id.js';
export { createMetrics, type Metrics, type PoolStats } from './metrics.js';
export { closeConnectionsWhenDraining } from './drain.js';
export { silentLogger, type WorkerLogger } from './worker-logger.js';

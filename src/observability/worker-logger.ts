/**
 * The one logger type of background work (webhook deliveries, iCal imports, wake-ups, the request log): a pino
 * logger — Fastify's `app.log` included — fits it as it is: `logger.warn({ …fields }, 'message')`.
 */
export interface WorkerLogger {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

/** For callers that want no log (tests, one-shot runs). */
export const silentLogger: WorkerLogger = { info() {}, warn() {}, error() {} };

/**
 * The delivery worker's SQL, one function per statement, each returning `{ text, values }`. The queue is
 * `staykit_internal.webhook_queue` (migration 0050): one row per notification still to be delivered, holding when
 * it is due (`run_at`), the attempts since it was queued, and the lease of the worker delivering it.
 */
export interface SqlQuery {
  text: string;
  values: unknown[];
}

export interface ClaimedNotification {
  id: string;
  organization_id: string;
  webhook_id: string;
  event_type: string;
  /** The stored payload, as the exact text that is POSTed. */
  body: string;
  endpoint: string;
  signing_secret: string;
  /** Attempts already made since it was (re)queued; the schedule index of the next decision. */
  attempts: number;
  lease_token: string;
}

/**
 * Claims up to `limit` due notifications of enabled webhooks and leases them: their `run_at` moves `leaseSeconds`
 * ahead, so if this worker dies before recording the outcome, another one picks them up after the lease (with the
 * same notification id, hence the same `webhook-id`). `FOR UPDATE SKIP LOCKED` lets concurrent claimers take
 * disjoint sets. A first attempt also waits `firstDelaySeconds` (schedule[0]) after the event.
 */
export function claimDue(limit: number, leaseSeconds: number, firstDelaySeconds: number): SqlQuery {
  return {
    text: `
      WITH due AS (
        SELECT q.notification_id
        FROM staykit_internal.webhook_queue AS q
        JOIN api.webhooks AS w ON w.id = q.webhook_id
        WHERE q.run_at <= now()
          AND (q.attempts > 0 OR q.queued_at <= now() - make_interval(secs => $3::double precision))
          AND w.disabled_at IS NULL
        ORDER BY q.run_at
        LIMIT $1
        FOR UPDATE OF q SKIP LOCKED
      )
      UPDATE staykit_internal.webhook_queue AS q
      SET run_at = now() + make_interval(secs => $2::double precision),
          lease_token = gen_random_uuid(),
          leased_at = now()
      FROM due, api.webhook_notifications AS n, api.webhooks AS w
      WHERE q.notification_id = due.notification_id
        AND n.id = q.notification_id
        AND w.id = q.webhook_id
      RETURNING n.id, n.organization_id, n.webhook_id, n.event_type, n.payload::text AS body,
                w.endpoint, w.signing_secret, q.attempts, q.lease_token`,
    values: [limit, leaseSeconds, firstDelaySeconds],
  };
}

/**
 * Records a final outcome (`sent` or `error`): the queue row is removed and the notification updated, but only
 * while the lease is still this worker's (a stale worker whose lease expired records nothing).
 */
export function recordFinal(
  notificationId: string,
  leaseToken: string,
  status: 'sent' | 'error',
  response: string,
): SqlQuery {
  return {
    text: `
      WITH leased AS (
        DELETE FROM staykit_internal.webhook_queue
        WHERE notification_id = $1 AND lease_token = $2
        RETURNING notification_id
      )
      UPDATE api.webhook_notifications AS n
      SET status = $3, tries = n.tries + 1, response = $4
      FROM leased
      WHERE n.id = leased.notification_id
      RETURNING n.id`,
    values: [notificationId, leaseToken, status, response],
  };
}

/**
 * Records a failed attempt that will be retried `delaySeconds` from now — or parked, if the webhook was disabled
 * meanwhile (see webhooks_park_queue in migration 0050).
 */
export function recordRetry(notificationId: string, leaseToken: string, delaySeconds: number, response: string): SqlQuery {
  return {
    text: `
      WITH leased AS (
        UPDATE staykit_internal.webhook_queue AS q
        SET run_at = CASE
              WHEN EXISTS (SELECT 1 FROM api.webhooks AS w WHERE w.id = q.webhook_id AND w.disabled_at IS NOT NULL)
              THEN 'infinity'::timestamptz
              ELSE now() + make_interval(secs => $3::double precision)
            END,
            attempts = attempts + 1,
            lease_token = NULL,
            leased_at = NULL
        WHERE notification_id = $1 AND lease_token = $2
        RETURNING notification_id
      )
      UPDATE api.webhook_notifications AS n
      SET tries = n.tries + 1, response = $4
      FROM leased
      WHERE n.id = leased.notification_id
      RETURNING n.id`,
    values: [notificationId, leaseToken, delaySeconds, response],
  };
}

/** 410 Gone: disables the webhook (its other pending notifications wait until it is enabled again). */
export function disableWebhook(webhookId: string): SqlQuery {
  return {
    text: `UPDATE api.webhooks SET disabled_at = now() WHERE id = $1 AND disabled_at IS NULL`,
    values: [webhookId],
  };
}

/**
 * Re-queues notifications of one organization (POST /v1/webhook-redeliver): each becomes `pending` again and is
 * due now with a fresh retry schedule; `tries` keeps counting. Returns the ids that were re-queued.
 */
export function requeue(organizationId: string, notificationIds: readonly string[]): SqlQuery {
  return {
    text: `SELECT staykit_internal.requeue_webhook_notification(n.id) AS id
           FROM api.webhook_notifications AS n
           WHERE n.organization_id = $1 AND n.id = ANY($2::uuid[])`,
    values: [organizationId, notificationIds],
  };
}

/** One webhook of one organization, for the test send. */
export function findWebhook(organizationId: string, webhookId: string): SqlQuery {
  return {
    text: `SELECT id, endpoint, signing_secret, disabled_at FROM api.webhooks WHERE organization_id = $1 AND id = $2`,
    values: [organizationId, webhookId],
  };
}

/**
 * The delivery worker's SQL, one function per statement, each returning `{ text, values }`. The queue is
 * `staykit_internal.webhook_queue` (migration 0050): one row per notification still to be delivered, holding when
 * it is due (`run_at`), the attempts since it was queued, and the lease of the worker delivering it. Webhook ids
 * are unique per organization only (a client may choose one), so a queue row meets its webhook and notification
 * on (id, organization_id).
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
  /** The text that is POSTed: the stored payload with the notification's `sequence` (migration 0217). */
  body: string;
  endpoint: string;
  signing_secret: string;
  /** Attempts already made since it was (re)queued; the schedule index of the next decision. */
  attempts: number;
  lease_token: string;
}

/** How many deliveries may be in flight at once (leased, across all workers) per webhook and per organization. */
export interface InFlightCaps {
  perWebhook: number;
  perOrganization: number;
}

/**
 * Claims up to `limit` due notifications and leases them: their `run_at` moves `leaseSeconds` ahead, so if this
 * worker dies before recording the outcome, another one picks them up after the lease (with the same notification
 * id, hence the same `webhook-id`). `FOR UPDATE SKIP LOCKED` lets concurrent claimers take disjoint sets. A first
 * attempt also waits `firstDelaySeconds` (schedule[0]) after the event.
 *
 * Fair between tenants: a webhook never has more than `caps.perWebhook` notifications leased at once, nor an
 * organization more than `caps.perOrganization` (live leases, counted across all workers), and the claimed rows
 * are taken round-robin across organizations (each organization's oldest due row first, then each one's second…),
 * so one organization's backlog to an endpoint that never answers cannot take every slot. The caps are counted
 * when a claim starts: claims that run at the very same moment on several workers each see the same count, so
 * for that instant the bound is the cap per claiming worker.
 *
 * The due rows are found per webhook with queued work (a skip scan of the (webhook_id, run_at) index, then at most
 * the webhook's free slots from each), so a claim reads at most caps × webhooks rows, however long one webhook's
 * backlog is. Due rows of a disabled webhook (its other rows are parked by webhooks_park_queue; these are a
 * failure recorded, or a lease that expired, as it was disabled) are parked here the same way instead of being
 * sent; `FOR SHARE` on the webhook waits for a concurrent enable, so none is parked after the webhook came back.
 */
export function claimDue(limit: number, leaseSeconds: number, firstDelaySeconds: number, caps: InFlightCaps): SqlQuery {
  return {
    text: `
      WITH RECURSIVE queued AS (
        (SELECT q.webhook_id FROM staykit_internal.webhook_queue AS q ORDER BY q.webhook_id LIMIT 1)
        UNION ALL
        SELECT (SELECT q.webhook_id FROM staykit_internal.webhook_queue AS q
                WHERE q.webhook_id > queued.webhook_id ORDER BY q.webhook_id LIMIT 1)
        FROM queued
        WHERE queued.webhook_id IS NOT NULL
      ),
      in_flight AS (
        SELECT q.webhook_id, q.organization_id, count(*)::int AS leased
        FROM staykit_internal.webhook_queue AS q
        WHERE q.lease_token IS NOT NULL AND q.run_at > now()
        GROUP BY q.webhook_id, q.organization_id
      ),
      candidates AS (
        SELECT c.notification_id, c.webhook_id, c.organization_id, c.run_at
        FROM queued
        CROSS JOIN LATERAL (
          SELECT q.notification_id, q.webhook_id, q.organization_id, q.run_at
          FROM staykit_internal.webhook_queue AS q
          WHERE q.webhook_id = queued.webhook_id
            AND q.run_at <= now()
            AND (q.attempts > 0 OR q.queued_at <= now() - make_interval(secs => $3::double precision))
          ORDER BY q.run_at
          LIMIT $4
        ) AS c
        WHERE queued.webhook_id IS NOT NULL
      ),
      slots AS (
        SELECT c.*, row_number() OVER (PARTITION BY c.webhook_id, c.organization_id ORDER BY c.run_at, c.notification_id) AS slot
        FROM candidates AS c
      ),
      turns AS (
        SELECT s.notification_id, s.run_at,
               row_number() OVER (PARTITION BY s.organization_id ORDER BY s.run_at, s.notification_id) AS turn,
               $5::int - coalesce(
                 (SELECT sum(f.leased) FROM in_flight AS f WHERE f.organization_id = s.organization_id), 0) AS room
        FROM slots AS s
        WHERE s.slot <= $4::int - coalesce((SELECT f.leased FROM in_flight AS f
                                            WHERE f.webhook_id = s.webhook_id AND f.organization_id = s.organization_id), 0)
      ),
      due AS (
        SELECT locked.notification_id, locked.webhook_id, locked.organization_id
        FROM (SELECT t.notification_id FROM turns AS t WHERE t.turn <= t.room ORDER BY t.turn, t.run_at LIMIT $1) AS picked
        CROSS JOIN LATERAL (
          -- run_at is checked again on the locked row: another worker may have leased it since the snapshot.
          SELECT q.notification_id, q.webhook_id, q.organization_id
          FROM staykit_internal.webhook_queue AS q
          WHERE q.notification_id = picked.notification_id AND q.run_at <= now()
          FOR UPDATE SKIP LOCKED
        ) AS locked
      ),
      disabled AS (
        SELECT w.id, w.organization_id
        FROM api.webhooks AS w
        WHERE (w.id, w.organization_id) IN (SELECT due.webhook_id, due.organization_id FROM due) AND w.disabled_at IS NOT NULL
        FOR SHARE
      ),
      parked AS (
        UPDATE staykit_internal.webhook_queue AS q
        SET run_at = 'infinity', lease_token = NULL, leased_at = NULL
        WHERE q.notification_id = ANY (ARRAY(
          SELECT due.notification_id FROM due
          WHERE (due.webhook_id, due.organization_id) IN (SELECT disabled.id, disabled.organization_id FROM disabled)))
      )
      UPDATE staykit_internal.webhook_queue AS q
      SET run_at = now() + make_interval(secs => $2::double precision),
          lease_token = gen_random_uuid(),
          leased_at = now()
      FROM due, api.webhook_notifications AS n, api.webhooks AS w
      WHERE q.notification_id = due.notification_id
        AND (due.webhook_id, due.organization_id) NOT IN (SELECT disabled.id, disabled.organization_id FROM disabled)
        AND n.id = q.notification_id AND n.organization_id = q.organization_id
        AND w.id = q.webhook_id AND w.organization_id = q.organization_id
      RETURNING n.id, n.organization_id, n.webhook_id, n.event_type,
                (n.payload || jsonb_build_object('sequence', n.sequence))::text AS body,
                w.endpoint, w.signing_secret, q.attempts, q.lease_token`,
    values: [limit, leaseSeconds, firstDelaySeconds, caps.perWebhook, caps.perOrganization],
  };
}

/** One attempt's outcome, as recorded by `recordOutcomes`. */
export interface RecordedOutcome {
  notificationId: string;
  leaseToken: string;
  /** `sent` / `error`: final, the queue row goes. `pending`: retried `delaySeconds` from now. */
  status: 'sent' | 'error' | 'pending';
  delaySeconds: number | undefined;
  /** The text stored in `webhook_notifications.response`. */
  response: string;
}

/**
 * Records the outcomes of many attempts in one statement (one round trip and one commit for a whole batch,
 * instead of one per delivery), each only while its lease is still this worker's: a stale worker whose lease
 * expired records nothing for that notification. Returns the ids that were recorded.
 * - `sent` / `error`: the queue row is removed; the notification gets its final status, `tries + 1`, `response`.
 * - `pending` (a failed attempt to retry): the queue row is due `delaySeconds` from now — or parked at infinity if
 *   the webhook was disabled meanwhile (see staykit_internal.webhooks_park_queue in schema/schema.sql) — with
 *   `attempts + 1` and no lease; the notification gets `tries + 1` and `response`.
 */
export function recordOutcomes(outcomes: readonly RecordedOutcome[]): SqlQuery {
  return {
    text: `
      WITH outcome AS (
        SELECT *
        FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::double precision[], $5::text[])
          AS o(notification_id, lease_token, status, delay_seconds, response)
      ),
      finished AS (
        DELETE FROM staykit_internal.webhook_queue AS q
        USING outcome AS o
        WHERE q.notification_id = ANY ($1::uuid[])
          AND q.notification_id = o.notification_id AND q.lease_token = o.lease_token AND o.status <> 'pending'
        RETURNING q.notification_id
      ),
      retried AS (
        UPDATE staykit_internal.webhook_queue AS q
        SET run_at = CASE
              WHEN EXISTS (SELECT 1 FROM api.webhooks AS w
                           WHERE w.id = q.webhook_id AND w.organization_id = q.organization_id AND w.disabled_at IS NOT NULL)
              THEN 'infinity'::timestamptz
              ELSE now() + make_interval(secs => o.delay_seconds)
            END,
            attempts = q.attempts + 1,
            lease_token = NULL,
            leased_at = NULL
        FROM outcome AS o
        WHERE q.notification_id = ANY ($1::uuid[])
          AND q.notification_id = o.notification_id AND q.lease_token = o.lease_token AND o.status = 'pending'
        RETURNING q.notification_id
      ),
      leased AS (
        SELECT notification_id FROM finished
        UNION ALL
        SELECT notification_id FROM retried
      )
      UPDATE api.webhook_notifications AS n
      SET status = o.status, tries = n.tries + 1, response = o.response
      FROM leased JOIN outcome AS o USING (notification_id)
      WHERE n.id = ANY ($1::uuid[]) AND n.id = leased.notification_id
      RETURNING n.id`,
    values: [
      outcomes.map((outcome) => outcome.notificationId),
      outcomes.map((outcome) => outcome.leaseToken),
      outcomes.map((outcome) => outcome.status),
      outcomes.map((outcome) => outcome.delaySeconds ?? null),
      outcomes.map((outcome) => outcome.response),
    ],
  };
}

/**
 * 410 Gone, in one statement: the notification ends `error` (while the lease is this worker's) and its webhook is
 * disabled, which parks the webhook's other queued notifications (webhooks_park_queue). Returns the id when
 * recorded.
 */
export function recordGone(notificationId: string, leaseToken: string, response: string): SqlQuery {
  return {
    text: `
      WITH leased AS (
        DELETE FROM staykit_internal.webhook_queue
        WHERE notification_id = $1 AND lease_token = $2
        RETURNING notification_id, webhook_id, organization_id
      ),
      disabled AS (
        UPDATE api.webhooks AS w
        SET disabled_at = now()
        FROM leased
        WHERE w.id = leased.webhook_id AND w.organization_id = leased.organization_id AND w.disabled_at IS NULL
      )
      UPDATE api.webhook_notifications AS n
      SET status = 'error', tries = n.tries + 1, response = $3
      FROM leased
      WHERE n.id = leased.notification_id AND n.organization_id = leased.organization_id
      RETURNING n.id`,
    values: [notificationId, leaseToken, response],
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

/** The event types of some notifications of one organization (POST /v1/webhook-redeliver checks their scopes). */
export function notificationEventTypes(organizationId: string, notificationIds: readonly string[]): SqlQuery {
  return {
    text: `SELECT DISTINCT n.event_type FROM api.webhook_notifications AS n
           WHERE n.organization_id = $1 AND n.id = ANY($2::uuid[]) ORDER BY n.event_type`,
    values: [organizationId, notificationIds],
  };
}

/** One webhook of one organization, for the test send. */
/** The test message as a notification of the log: sent or failed after its one try, never queued (migration 0217). */
export function recordTestNotification(
  organizationId: string, webhookId: string, notification: { id: string; body: string; ok: boolean; response: string },
): SqlQuery {
  return {
    text: `INSERT INTO api.webhook_notifications (id, organization_id, webhook_id, event_type, payload, status, tries, response)
           VALUES ($1, $2, $3, 'webhook.test', $4::jsonb, $5, 1, $6)`,
    values: [notification.id, organizationId, webhookId, notification.body, notification.ok ? 'sent' : 'error', notification.response],
  };
}

export function findWebhook(organizationId: string, webhookId: string): SqlQuery {
  return {
    text: `SELECT id, endpoint, signing_secret, disabled_at FROM api.webhooks WHERE organization_id = $1 AND id = $2`,
    values: [organizationId, webhookId],
  };
}

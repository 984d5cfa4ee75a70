import type { Mailer } from '../mail/mailer'
import type { PanelMetrics } from './panel-metrics'

/** The same mailer, counting each attempt: sent, or failed (outbox.ts retries those). */
export function instrumentedMailer(mailer: Mailer, metrics: PanelMetrics): Mailer {
  return {
    async send(message) {
      try {
        await mailer.send(message)
        metrics.mails.labels('sent').inc()
      } catch (error) {
        metrics.mails.labels('failed').inc()
        throw error
      }
    },
    close: () => mailer.close(),
    // A log-only mailer stays one: the outbox must not log that it sent what it only logged.
    ...(mailer.logOnly ? { logOnly: true } : {}),
  }
}

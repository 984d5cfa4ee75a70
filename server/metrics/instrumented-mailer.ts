import type { Mailer } from '../mail/mailer'
import type { PanelMetrics } from './panel-metrics'

/** The same mailer, counting what it sends and what fails. */
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
  }
}

import type { FastifyBaseLogger } from 'fastify'
import nodemailer from 'nodemailer'

export interface MailMessage {
  to: string
  subject: string
  text: string
  /** The same message as HTML, for mail programs that show it. */
  html?: string
}

export interface Mailer {
  send(message: MailMessage): Promise<void>
  close(): void
}

/**
 * Outgoing mail. With SMTP_URL, through that server (nodemailer). Without it, the message is
 * written to the log instead, whole, so a fresh install can still reset a password: that is for
 * trying the panel out, not for production, and README says so.
 */
export function createMailer(options: {
  smtpUrl: string | null
  from: string
  log: FastifyBaseLogger
}): Mailer {
  const { smtpUrl, from, log } = options
  if (!smtpUrl) {
    return {
      async send(message) {
        log.warn(
          { mail: message },
          `mail not sent (SMTP_URL is not set); its text follows: ${message.text}`,
        )
      },
      close() {},
    }
  }
  const transport = nodemailer.createTransport(smtpUrl, { from })
  return {
    async send(message) {
      await transport.sendMail({ ...message, from })
    },
    close: () => transport.close(),
  }
}

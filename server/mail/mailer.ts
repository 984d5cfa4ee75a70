import { createRequire } from 'node:module'
import type { FastifyBaseLogger } from 'fastify'
import type Nodemailer from 'nodemailer'

// nodemailer only when SMTP_URL is set: without it the server never loads it (start-up time).
const loadPackage = createRequire(import.meta.url)

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
  /**
   * True when a message only goes to the log (no SMTP_URL): then nothing was sent, and a caller
   * must not log that it was.
   */
  readonly logOnly?: boolean
}

/**
 * How a mail leaves (outbox.ts decides when). With SMTP_URL, through that server (nodemailer). Without it, the message is
 * written to the log instead, whole, so a fresh install can still reset a password: that is for
 * trying the panel out, not for production, and docs/operations.md says so.
 */
export function createMailer(options: {
  smtpUrl: string | null
  from: string
  log: FastifyBaseLogger
}): Mailer {
  const { smtpUrl, from, log } = options
  if (!smtpUrl) {
    return {
      logOnly: true,
      // The text once, in the message (where a reader of the log looks for the link); the
      // fields say to whom and what, not the text again.
      async send(message) {
        log.warn(
          { mailTo: message.to, mailSubject: message.subject },
          `mail not sent (SMTP_URL is not set); its text follows:\n${message.text}`,
        )
      },
      close() {},
    }
  }
  const nodemailer = loadPackage('nodemailer') as typeof Nodemailer
  // Short time-outs (nodemailer waits up to 10 minutes on a silent socket): a failed attempt is
  // retried by the outbox anyway, and a send must end well within the outbox's lease on its row.
  // (Settings in SMTP_URL's query still win.)
  const transport = nodemailer.createTransport(
    { url: smtpUrl, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 60_000 },
    { from },
  )
  return {
    async send(message) {
      await transport.sendMail({ ...message, from })
    },
    close: () => transport.close(),
  }
}

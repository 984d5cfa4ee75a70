import { SMTPServer } from 'smtp-server'

export interface CaughtMail {
  to: string[]
  /** The raw message as it arrived (headers and MIME body). */
  raw: string
}

/**
 * A real SMTP server on loopback, that keeps what it accepts in memory: a compiled server's
 * SMTP_URL points at it. Stopped and started again on the same port, it is an SMTP server that
 * restarts; what it caught before is kept.
 */
export class SmtpCatcher {
  readonly caught: CaughtMail[] = []
  private server: SMTPServer | null = null

  constructor(readonly port: number) {}

  get url(): string {
    return `smtp://127.0.0.1:${this.port}`
  }

  /** While true, every transaction stops at its recipient, waiting (a slow SMTP server). */
  holding = false
  /** Transactions that reached their recipient while holding (the sender is mid-send). */
  held = 0
  private readonly waitingRecipients: (() => void)[] = []

  /** Lets the held transactions and every later one go on. */
  release(): void {
    this.holding = false
    for (const go of this.waitingRecipients.splice(0)) go()
  }

  async start(): Promise<void> {
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onRcptTo: (_address, _session, callback) => {
        if (!this.holding) return callback()
        this.held += 1
        this.waitingRecipients.push(() => callback())
      },
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = []
        stream.on('data', (chunk: Buffer) => chunks.push(chunk))
        stream.on('end', () => {
          this.caught.push({
            to: session.envelope.rcptTo.map(({ address }) => address),
            raw: Buffer.concat(chunks).toString('utf8'),
          })
          callback()
        })
      },
    })
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject)
      server.listen(this.port, '127.0.0.1', () => resolve())
    })
    this.server = server
  }

  async stop(): Promise<void> {
    const server = this.server
    this.server = null
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()))
  }

  /** The subjects caught for an address (nodemailer's encoded-words decoded), in order. */
  subjectsTo(address: string): string[] {
    return this.caught
      .filter((mail) => mail.to.includes(address))
      .map((mail) => subjectOf(mail.raw))
  }
}

export function subjectOf(raw: string): string {
  const head = raw.split(/\r?\n\r?\n/)[0] ?? ''
  const header = /^Subject:\s*(.+(?:\r?\n[ \t].+)*)/im.exec(head)?.[1] ?? ''
  return (
    header
      .replace(/\r?\n[ \t]/g, ' ')
      // Whitespace between two encoded-words is not part of the text (RFC 2047).
      .replace(/\?=\s+=\?/g, '?==?')
      .replace(/=\?utf-8\?([qb])\?([^?]*)\?=/gi, (_, kind: string, data: string) =>
        kind.toLowerCase() === 'b'
          ? Buffer.from(data, 'base64').toString('utf8')
          : Buffer.from(
              data
                .replace(/_/g, ' ')
                .replace(/=([0-9A-F]{2})/gi, (__, hex: string) =>
                  String.fromCharCode(parseInt(hex, 16)),
                ),
              'latin1',
            ).toString('utf8'),
      )
  )
}

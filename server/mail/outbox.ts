import type { FastifyBaseLogger } from 'fastify'
import type { ExpressionBuilder, Selectable } from 'kysely'
import type { Db } from '../db/database'
import type { Engine } from '../db/portable-sql'
import type { MailOutboxTable, Schema } from '../db/schema'
import type { Mailer, MailMessage } from './mailer'

export type OutboxRow = Selectable<MailOutboxTable>

/**
 * Composes the mail of a row queued without one (a recovery request), in a transaction of its
 * own that also writes the mail into the row (composeQueued), or says there is none to send
 * (null: the row is deleted).
 */
export type Preparer = (row: OutboxRow) => Promise<MailMessage | null>

/**
 * Where a mailed link's token goes in a queued mail. A stored mail never holds a working link:
 * the row keeps the hash of the link's token (`request: {"linkTokenHash": …}`), as
 * password_resets does, and at each delivery the LinkMinter gives the link a new token, put in
 * place of this mark in the message that goes to SMTP only. A backup, or anyone who reads the
 * table while SMTP is down, finds no link that opens anything.
 */
export const LINK_TOKEN_MARK = '{link-token}'

/**
 * A new token for the live link whose token has this hash, in place of that one (the link keeps
 * its expiry), in the sender's transaction; undefined when the link no longer works (used,
 * replaced by a newer one, expired): its mail is then not sent.
 */
export type LinkMinter = (
  trx: Db,
  tokenHash: string,
  now: Date,
) => Promise<{ token: string; tokenHash: string } | undefined>

export interface RetryPolicy {
  /** The wait after the first failed attempt; each further failure doubles it. */
  firstDelayMs: number
  /** No wait is longer than this. */
  maxDelayMs: number
  /** A mail still not delivered this long after it was queued is given up on (failed). */
  giveUpAfterMs: number
}

export const DEFAULT_RETRY: RetryPolicy = {
  firstDelayMs: 10_000,
  maxDelayMs: 30 * 60_000,
  giveUpAfterMs: 24 * 3_600_000,
}

export interface OutboxTiming {
  /**
   * After a commit the sender starts within this range (ms), at random: the mail's work
   * (composing, the SMTP exchange) never lands on the request right after the one that queued
   * it, so its time cannot tell what was queued (a recovery request for an account or not).
   */
  wakeDelayMs: readonly [number, number]
  /** How often waiting rows are looked for anyway: other replicas' mails, and retries. */
  pollMs: number
  /**
   * How long a claim holds a row unless its sender renews it. A crashed sender's rows are taken
   * up by another once it runs out: with the poll, a mail of a replica killed mid-send waits
   * under a minute (it was 5 minutes for one lease over 20 rows: issue 44).
   */
  leaseMs: number
  /**
   * How often a live sender renews the claims it holds, and it renews a row's just before its
   * mail goes to SMTP: a slow SMTP server never lets a live sender's claim run out mid-send.
   */
  renewMs: number
}

export const DEFAULT_TIMING: OutboxTiming = {
  wakeDelayMs: [20, 200],
  pollMs: 5_000,
  leaseMs: 30_000,
  renewMs: 10_000,
}

/** Rows claimed at once. */
const BATCH = 20
/** Finished rows are kept this long (what was sent, what failed), then pruned. */
export const FINISHED_KEPT_DAYS = 30
const MAX_ERROR_LENGTH = 500

/**
 * Queues a mail in the caller's transaction: it exists exactly when the change that causes it
 * is committed. Call wake() after the commit.
 */
export async function queueMail(
  trx: Db,
  kind: string,
  message: MailMessage,
  now: Date,
  link?: { tokenHash: string },
): Promise<void> {
  await insertRow(trx, kind, message.to, now, {
    subject: message.subject,
    text: message.text,
    html: message.html ?? null,
    request: link ? JSON.stringify({ linkTokenHash: link.tokenHash }) : null,
  })
}

/** Queues a row the sender composes (Preparer), with what it needs to know as JSON. */
export async function queueRequest(
  trx: Db,
  kind: string,
  recipient: string,
  request: unknown,
  now: Date,
): Promise<void> {
  await insertRow(trx, kind, recipient, now, { request: JSON.stringify(request) })
}

/**
 * A Preparer's write of the mail it composed, in its own transaction (with LINK_TOKEN_MARK and
 * the link's token hash when it carries a link). The row's request is then done with.
 */
export async function composeQueued(
  trx: Db,
  id: string,
  message: MailMessage,
  link?: { tokenHash: string },
): Promise<void> {
  await trx
    .updateTable('mail_outbox')
    .set({
      subject: message.subject,
      text: message.text,
      html: message.html ?? null,
      request: link ? JSON.stringify({ linkTokenHash: link.tokenHash }) : null,
    })
    .where('id', '=', id)
    .execute()
}

async function insertRow(
  trx: Db,
  kind: string,
  recipient: string,
  now: Date,
  fields: Partial<Pick<OutboxRow, 'subject' | 'text' | 'html' | 'request'>>,
) {
  await trx
    .insertInto('mail_outbox')
    .values({
      id: crypto.randomUUID(),
      kind,
      recipient,
      subject: null,
      text: null,
      html: null,
      request: null,
      ...fields,
      state: 'waiting',
      attempts: 0,
      created_at: now,
      next_attempt_at: now,
    })
    .execute()
}

/** The wait after `attempts` failed attempts: doubling from the first, capped. */
export function retryDelayMs(policy: RetryPolicy, attempts: number): number {
  return Math.min(policy.maxDelayMs, policy.firstDelayMs * 2 ** Math.max(0, attempts - 1))
}

export interface MailOutboxOptions {
  db: Db
  engine: Engine
  mailer: Mailer
  log: FastifyBaseLogger
  now?: () => Date
  retry?: RetryPolicy
  timing?: Partial<OutboxTiming>
}

/**
 * The sender: delivers the outbox's waiting rows, retries failures with doubling waits up to a
 * bound, and keeps each row's outcome.
 *
 * At least once, never knowingly twice. A row is claimed (a lease: claimed_by, claimed_until,
 * committed, renewed while the sender works and once more just before the mail goes to SMTP)
 * before its mail goes to SMTP and marked sent right after SMTP accepts it. Marking
 * before sending would lose the mail to a crash in between; a lost recovery link or invitation
 * is worse than a second copy, so the mail is sent first. The one window for a duplicate is a
 * crash (or a lost database) between SMTP's accept and the mark, a few milliseconds; no scheme
 * closes it, as SMTP and the database share no transaction. Claims exclude each other: on
 * PostgreSQL the due rows are locked FOR UPDATE SKIP LOCKED and then leased in one transaction,
 * and on both engines the lease is taken by a conditional update (only a row nobody holds), so
 * of several senders (replicas) only one sends a given row.
 */
export class MailOutbox {
  private readonly id = crypto.randomUUID()
  private readonly preparers = new Map<string, Preparer>()
  private mintLink: LinkMinter | null = null
  private readonly retry: RetryPolicy
  private readonly timing: OutboxTiming
  private readonly now: () => Date
  private timer: NodeJS.Timeout | null = null
  private timerAt = Infinity
  private running: Promise<void> | null = null
  private again = false
  private started = false
  private stopping = false

  constructor(private readonly options: MailOutboxOptions) {
    this.retry = options.retry ?? DEFAULT_RETRY
    this.timing = { ...DEFAULT_TIMING, ...options.timing }
    this.now = options.now ?? (() => new Date())
  }

  /** How rows of a kind queued without a mail (queueRequest) are composed. */
  prepare(kind: string, preparer: Preparer): void {
    this.preparers.set(kind, preparer)
  }

  /** How the links of queued mails get their token at delivery (LINK_TOKEN_MARK). */
  mintLinksWith(minter: LinkMinter): void {
    this.mintLink = minter
  }

  /**
   * Queues a mail in the caller's transaction, on the sender's clock; wake() after the commit.
   * A mail with a link has LINK_TOKEN_MARK where its token goes, and `link` its token's hash.
   */
  queue(trx: Db, kind: string, message: MailMessage, link?: { tokenHash: string }): Promise<void> {
    return queueMail(trx, kind, message, this.now(), link)
  }

  /**
   * Sends what is due now, until nothing is, and waits for a delivery already under way: the
   * tests' way of having every queued mail in the mailbox before they look.
   */
  async drain(): Promise<void> {
    for (;;) {
      await this.running
      if ((await this.runOnce()) === 0 && !this.running) return
    }
  }

  queueRequest(trx: Db, kind: string, recipient: string, request: unknown): Promise<void> {
    return queueRequest(trx, kind, recipient, request, this.now())
  }

  /** Starts sending (what is waiting now, then on wake() and every poll). */
  async start(): Promise<void> {
    if (this.started) return
    this.started = true
    if (this.options.engine === 'sqlite') {
      // The embedded store has one process (its data dir is locked): a claim found at start is
      // a crashed process's, and waiting out its lease would only delay the mail.
      await this.options.db
        .updateTable('mail_outbox')
        .set({ claimed_by: null, claimed_until: null })
        .where('state', '=', 'waiting')
        .where('claimed_by', 'is not', null)
        .execute()
    }
    this.schedule(0)
  }

  /** A mail was queued (its transaction committed): send it soon. */
  wake(): void {
    const [min, max] = this.timing.wakeDelayMs
    this.schedule(min + Math.random() * (max - min))
  }

  /**
   * Stops claiming; the mail being sent is finished and marked, rows claimed but not yet sent
   * are released. Nothing is lost: what waits is sent by the next start (or another replica).
   */
  async stop(): Promise<void> {
    this.stopping = true
    if (this.timer) clearTimeout(this.timer)
    this.timer = null
    await this.running
  }

  /** Waiting and given-up rows (the metrics' gauges). */
  async counts(): Promise<{ waiting: number; failed: number }> {
    const rows = await this.options.db
      .selectFrom('mail_outbox')
      .select(['state', (eb) => eb.fn.countAll<number | string>().as('count')])
      .where('state', 'in', ['waiting', 'failed'])
      .groupBy('state')
      .execute()
    const count = (state: string) => Number(rows.find((row) => row.state === state)?.count ?? 0)
    return { waiting: count('waiting'), failed: count('failed') }
  }

  /** Finished rows older than FINISHED_KEPT_DAYS go (housekeeping). */
  async prune(): Promise<void> {
    await this.options.db
      .deleteFrom('mail_outbox')
      .where('state', '!=', 'waiting')
      .where('finished_at', '<', new Date(this.now().getTime() - FINISHED_KEPT_DAYS * 86_400_000))
      .execute()
  }

  private schedule(ms: number): void {
    if (this.stopping || !this.started) return
    const at = Date.now() + ms
    if (this.timer && this.timerAt <= at) return
    if (this.timer) clearTimeout(this.timer)
    this.timerAt = at
    this.timer = setTimeout(() => this.tick(), ms)
    // Not what keeps a process alive: the server's listener is.
    this.timer.unref()
  }

  private tick(): void {
    this.timer = null
    this.timerAt = Infinity
    if (this.running) {
      this.again = true
      return
    }
    this.running = this.loop().finally(() => {
      this.running = null
    })
  }

  private async loop(): Promise<void> {
    do {
      this.again = false
      try {
        while (!this.stopping && (await this.runOnce()) === BATCH) {
          // a full batch: more may be due
        }
      } catch (error) {
        this.options.log.warn({ err: error }, 'mail outbox: sending failed; will retry')
      }
    } while (this.again && !this.stopping)
    if (!this.stopping) this.schedule(await this.nextWakeMs().catch(() => this.timing.pollMs))
  }

  /** Until the next poll, or sooner when a retry is due before it. */
  private async nextWakeMs(): Promise<number> {
    const now = this.now()
    const next = await this.options.db
      .selectFrom('mail_outbox')
      .select((eb) => eb.fn.min('next_attempt_at').as('at'))
      .where('state', '=', 'waiting')
      .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<=', now)]))
      .where((eb) => this.canSend(eb))
      .executeTakeFirst()
    const at = next?.at ? new Date(next.at).getTime() : Infinity
    // A little after it is due, never a busy loop.
    return Math.min(this.timing.pollMs, Math.max(50, at - now.getTime() + 10))
  }

  /**
   * Claims the rows due now and delivers them, one by one, renewing the claims it still holds
   * every renewMs meanwhile; how many it claimed.
   */
  async runOnce(): Promise<number> {
    const rows = await this.claim()
    if (rows.length === 0) return 0
    const renewal = setInterval(() => void this.renewClaims(), this.timing.renewMs)
    renewal.unref()
    try {
      for (const [index, row] of rows.entries()) {
        if (this.stopping) {
          await this.release(rows.slice(index))
          break
        }
        await this.deliver(row)
      }
    } finally {
      clearInterval(renewal)
    }
    return rows.length
  }

  /**
   * Extends every claim this sender holds by a lease from now (the timer of runOnce; tests call
   * it). A failure is only logged: the claims then run out, and another sender takes the rows.
   */
  async renewClaims(): Promise<void> {
    try {
      await this.options.db
        .updateTable('mail_outbox')
        .set({ claimed_until: this.leaseEnd() })
        .where('claimed_by', '=', this.id)
        .where('state', '=', 'waiting')
        .execute()
    } catch (error) {
      this.options.log.warn({ err: error }, 'mail outbox: could not renew its claims')
    }
  }

  private leaseEnd(): Date {
    return new Date(this.now().getTime() + this.timing.leaseMs)
  }

  /** Renews one row's claim; false when the row is no longer this sender's to send. */
  private async holdForSending(row: OutboxRow): Promise<boolean> {
    const result = await this.options.db
      .updateTable('mail_outbox')
      .set({ claimed_until: this.leaseEnd() })
      .where('id', '=', row.id)
      .where('claimed_by', '=', this.id)
      .where('state', '=', 'waiting')
      .executeTakeFirst()
    return result.numUpdatedRows > 0n
  }

  /**
   * What became of a row this sender no longer holds: deleted (an anonymisation removes every
   * mail that names the person, a refused registration's row goes with it), finished by another
   * sender, or claimed by another once this one's claim ran out.
   */
  private async fateOf(row: OutboxRow): Promise<RowFate> {
    const now = await this.options.db
      .selectFrom('mail_outbox')
      .select(['state', 'claimed_by'])
      .where('id', '=', row.id)
      .executeTakeFirst()
    if (!now) return 'deleted'
    if (now.state !== 'waiting') return 'finished elsewhere'
    return now.claimed_by === null ? 'released' : 'claimed elsewhere'
  }

  private async claim(): Promise<OutboxRow[]> {
    const now = this.now()
    const leased = this.leaseEnd()
    const { db, engine } = this.options
    return db.transaction().execute(async (trx) => {
      let due = trx
        .selectFrom('mail_outbox')
        .select('id')
        .where('state', '=', 'waiting')
        .where('next_attempt_at', '<=', now)
        .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<=', now)]))
        .where((eb) => this.canSend(eb))
        .orderBy('next_attempt_at')
        .limit(BATCH)
      // Another replica's claim in progress is skipped, not waited for (SQLite has one writer).
      if (engine === 'postgres') due = due.forUpdate().skipLocked()
      const ids = (await due.execute()).map((row) => row.id)
      if (ids.length === 0) return []
      return trx
        .updateTable('mail_outbox')
        .set({ claimed_by: this.id, claimed_until: leased })
        .where('id', 'in', ids)
        .where('state', '=', 'waiting')
        .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<=', now)]))
        .returningAll()
        .execute()
    })
  }

  /**
   * Rows this sender can deliver: composed ones, and those of a kind it knows how to compose (a
   * sender without that kind, say a replica of an earlier version, leaves them to one that has).
   */
  private canSend(eb: ExpressionBuilder<Schema, 'mail_outbox'>) {
    const kinds = [...this.preparers.keys()]
    return kinds.length === 0
      ? eb('subject', 'is not', null)
      : eb.or([eb('subject', 'is not', null), eb('kind', 'in', kinds)])
  }

  private async release(rows: OutboxRow[]): Promise<void> {
    if (rows.length === 0) return
    await this.options.db
      .updateTable('mail_outbox')
      .set({ claimed_by: null, claimed_until: null })
      .where(
        'id',
        'in',
        rows.map((row) => row.id),
      )
      .where('claimed_by', '=', this.id)
      .execute()
  }

  private async deliver(row: OutboxRow): Promise<void> {
    const { mailer, log } = this.options
    const mail = { mailId: row.id, mail: row.kind }
    let message: MailMessage | null
    try {
      message = row.subject === null ? await this.compose(row) : messageOf(row)
      if (message === null) {
        // Nothing to send (a recovery request for an e-mail without an active account): the
        // row goes, so the table keeps no trace of addresses that have no account.
        await this.options.db
          .deleteFrom('mail_outbox')
          .where('id', '=', row.id)
          .where('claimed_by', '=', this.id)
          .execute()
        return
      }
      if (hasLinkMark(message)) {
        const token = await this.freshLinkToken(row)
        if (token === undefined) {
          await this.finish(row, {
            state: 'failed',
            last_error: 'its link was used, replaced by a newer one, or expired before it was sent',
          })
          log.warn(mail, 'mail not sent: its link no longer works')
          return
        }
        message = withLinkToken(message, token)
      }
      // Checked (and its lease renewed) at the last moment: a row deleted meanwhile, or taken
      // by another sender, is not sent.
      if (!(await this.holdForSending(row))) {
        const fate = await this.fateOf(row)
        log[fate === 'deleted' ? 'info' : 'warn']({ ...mail, fate }, NOT_SENT[fate])
        return
      }
      await mailer.send(message)
    } catch (error) {
      await this.failed(row, error)
      return
    }
    const marked = await this.finish(row, {
      state: 'sent',
      // A mail its sender composed (a security notice) had no subject in the row until now:
      // kept, so the person's copy of their data (features/my-data) says which mail it was.
      subject: message.subject,
      attempts: row.attempts + 1,
      last_attempt_at: this.now(),
    })
    if (!marked) {
      const fate = await this.fateOf(row)
      log.warn({ ...mail, fate }, SENT_BUT[fate])
    } else if (!mailer.logOnly) {
      // Without SMTP the mailer's own line ("mail not sent …") is the one line about it.
      log.info({ ...mail, attempts: row.attempts + 1 }, 'mail sent')
    }
  }

  /** A new token for the row's link, its hash kept in the row; undefined: the link is gone. */
  private async freshLinkToken(row: OutboxRow): Promise<string | undefined> {
    const mintLink = this.mintLink
    if (!mintLink) throw new Error(`a ${row.kind} mail with a link but no way to give it a token`)
    return this.options.db.transaction().execute(async (trx) => {
      // Read again: a Preparer may have written the link's hash since the row was claimed.
      const { request } = await trx
        .selectFrom('mail_outbox')
        .select('request')
        .where('id', '=', row.id)
        .executeTakeFirstOrThrow()
      const { linkTokenHash } = JSON.parse(request ?? '{}') as { linkTokenHash?: unknown }
      if (typeof linkTokenHash !== 'string') {
        throw new Error(`a ${row.kind} mail with a link but no hash of its token`)
      }
      const fresh = await mintLink(trx, linkTokenHash, this.now())
      if (!fresh) return undefined
      await trx
        .updateTable('mail_outbox')
        .set({ request: JSON.stringify({ linkTokenHash: fresh.tokenHash }) })
        .where('id', '=', row.id)
        .where('claimed_by', '=', this.id)
        .execute()
      return fresh.token
    })
  }

  private async compose(row: OutboxRow): Promise<MailMessage | null> {
    const preparer = this.preparers.get(row.kind)
    if (!preparer) throw new Error(`no way to compose a mail of kind ${row.kind}`)
    return preparer(row)
  }

  private async failed(row: OutboxRow, error: unknown): Promise<void> {
    const now = this.now()
    const attempts = row.attempts + 1
    const next = new Date(now.getTime() + retryDelayMs(this.retry, attempts))
    const givenUp = next.getTime() - row.created_at.getTime() > this.retry.giveUpAfterMs
    const lastError = (error instanceof Error ? error.message : String(error)).slice(
      0,
      MAX_ERROR_LENGTH,
    )
    const outcome = { attempts, last_attempt_at: now, last_error: lastError }
    const mail = { mailId: row.id, mail: row.kind, attempts, err: error }
    if (givenUp) {
      await this.finish(row, { state: 'failed', ...outcome })
      this.options.log.error(mail, `mail given up on after ${attempts} attempts`)
      return
    }
    await this.options.db
      .updateTable('mail_outbox')
      .set({ ...outcome, next_attempt_at: next, claimed_by: null, claimed_until: null })
      .where('id', '=', row.id)
      .where('claimed_by', '=', this.id)
      .execute()
    this.options.log.warn(
      { ...mail, nextAttemptAt: next.toISOString() },
      'mail not delivered; will retry',
    )
  }

  /** Ends a row (its body emptied: it holds live links); false when the claim was lost. */
  private async finish(
    row: OutboxRow,
    // A sent row keeps the error of its last failed attempt, if any: part of its story.
    fields: Partial<
      Pick<OutboxRow, 'state' | 'subject' | 'attempts' | 'last_attempt_at' | 'last_error'>
    >,
  ): Promise<boolean> {
    const result = await this.options.db
      .updateTable('mail_outbox')
      .set({
        ...fields,
        finished_at: this.now(),
        text: null,
        html: null,
        request: null,
        claimed_by: null,
        claimed_until: null,
      })
      .where('id', '=', row.id)
      .where('claimed_by', '=', this.id)
      .executeTakeFirst()
    return result.numUpdatedRows > 0n
  }
}

/** What became of a row its sender no longer holds (MailOutbox.fateOf). */
type RowFate = 'deleted' | 'finished elsewhere' | 'claimed elsewhere' | 'released'

/** The log line of a mail not sent because its row was no longer the sender's, by fate. */
const NOT_SENT: Record<RowFate, string> = {
  deleted:
    'mail not sent: its row was deleted before it went out (an anonymisation or a removed account takes its mails with it)',
  'finished elsewhere': 'mail not sent here: another sender had already sent it',
  'claimed elsewhere':
    'mail not sent here: its claim had run out and another sender took it (that one sends it)',
  released: 'mail not sent now: its claim was released; it waits for the next delivery',
}

/** The log line of a mail that went to SMTP but whose row could not be marked sent, by fate. */
const SENT_BUT: Record<RowFate, string> = {
  deleted:
    'mail sent, then its row was deleted (an anonymisation or a removed account took its mails): nothing will send it again',
  'finished elsewhere': 'mail sent, but another sender had sent it too: it went out twice',
  'claimed elsewhere':
    'mail sent, but its claim had run out and another sender took it: it may go out twice',
  released: 'mail sent, but its claim was released meanwhile: it may go out twice',
}

const hasLinkMark = (message: MailMessage) =>
  message.text.includes(LINK_TOKEN_MARK) || (message.html?.includes(LINK_TOKEN_MARK) ?? false)

function withLinkToken(message: MailMessage, token: string): MailMessage {
  return {
    ...message,
    text: message.text.replaceAll(LINK_TOKEN_MARK, token),
    ...(message.html === undefined
      ? {}
      : { html: message.html.replaceAll(LINK_TOKEN_MARK, token) }),
  }
}

function messageOf(row: OutboxRow): MailMessage {
  return {
    to: row.recipient,
    subject: row.subject ?? '',
    text: row.text ?? '',
    ...(row.html === null ? {} : { html: row.html }),
  }
}

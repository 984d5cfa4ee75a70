import type { FastifyBaseLogger } from 'fastify'

/**
 * Work started after an answer is sent (so its time says nothing to the caller), kept track of so
 * that the app closes only once it has finished, and tests can wait for it.
 */
export class BackgroundWork {
  private readonly running = new Set<Promise<void>>()

  constructor(private readonly log: FastifyBaseLogger) {}

  /** Runs `work` on the next turn of the loop; a failure is logged with `failure`. */
  afterAnswer(failure: string, work: () => Promise<void>): void {
    const task = new Promise<void>((resolve) => setImmediate(resolve))
      .then(work)
      .catch((error: unknown) => this.log.error({ err: error }, failure))
      .finally(() => this.running.delete(task))
    this.running.add(task)
  }

  /** Resolves when the work started after earlier answers has finished. */
  async settled(): Promise<void> {
    while (this.running.size > 0) await Promise.all([...this.running])
  }
}

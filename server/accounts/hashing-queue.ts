import { HttpError } from '../http/errors'

/**
 * Password hashing is the costly part of signing in (scrypt: tens of milliseconds of a thread
 * and 32 MiB). Unbounded, a flood of sign-ins fills libuv's thread pool and queues every other
 * request behind it. So at most `concurrency` hashes run at once, at most `maxWaiting` wait, and
 * any more are refused at once with a 503 and Retry-After instead of answering seconds late.
 */
export class HashingBusyError extends HttpError {
  constructor(readonly retryAfterSeconds: number) {
    super(
      503,
      'server_busy',
      'O servidor está ocupado com muitas tentativas de acesso. Tente novamente em instantes.',
      { 'retry-after': String(retryAfterSeconds) },
      'hashing_busy',
    )
    this.name = 'HashingBusyError'
  }
}

export class HashingQueue {
  private running = 0
  private readonly waiting: (() => void)[] = []

  constructor(
    readonly concurrency: number,
    readonly maxWaiting: number,
    private readonly retryAfterSeconds = 2,
  ) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running >= this.concurrency) {
      if (this.waiting.length >= this.maxWaiting) {
        throw new HashingBusyError(this.retryAfterSeconds)
      }
      await new Promise<void>((resolve) => this.waiting.push(resolve))
    } else {
      this.running += 1
    }
    try {
      return await task()
    } finally {
      // The slot passes straight to the next waiting task, or is freed.
      const next = this.waiting.shift()
      if (next) next()
      else this.running -= 1
    }
  }

  /**
   * Refuses now what `run` would refuse: a caller with costly work to do before it hashes (the
   * sign-in limits write to the database, then give the try back when the queue is full) checks
   * here first, so that a flood it cannot serve costs it next to nothing.
   */
  refuseWhenFull(): void {
    if (this.running >= this.concurrency && this.waiting.length >= this.maxWaiting) {
      throw new HashingBusyError(this.retryAfterSeconds)
    }
  }

  get load(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waiting.length }
  }
}

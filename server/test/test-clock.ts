/**
 * A clock a test moves by hand (sessions' idle and absolute ends, challenge lifetimes, TOTP
 * steps): what would take half an hour of waiting takes one call. It starts at the real time,
 * so what still reads the real clock (the sign-in limits, the audit log) agrees with it.
 */
export class TestClock {
  private at = Date.now()

  readonly now = (): Date => new Date(this.at)

  advance(ms: number): void {
    this.at += ms
  }

  advanceMinutes(minutes: number): void {
    this.advance(minutes * 60_000)
  }
}

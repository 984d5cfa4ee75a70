import { after, before } from 'node:test'
import { ADMIN, apiFixture, type ApiFixture } from './api-fixture'
import { TestClock } from './test-clock'

/**
 * For a test file of calls on people's accounts: one app on its own test clock, with no sign-in
 * limit in the way and the first admin signed in, opened before the file's tests and closed after
 * them. Read `api` and `adminToken` inside tests (they are set by then); move `clock` as they need.
 */
export function signedInAdminFixture(): { clock: TestClock; api: ApiFixture; adminToken: string } {
  const fixture = {
    clock: new TestClock(),
    api: undefined as unknown as ApiFixture,
    adminToken: '',
  }
  before(async () => {
    fixture.api = await apiFixture({ authRateLimit: 1_000_000, clock: fixture.clock.now })
    fixture.adminToken = await fixture.api.signIn(ADMIN.email, ADMIN.password)
  })
  after(() => fixture.api.close())
  return fixture
}

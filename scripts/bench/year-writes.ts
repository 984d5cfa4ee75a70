/**
 * `npx tsx scripts/bench/year-writes.ts`: what a year of data makes of the writes and lists that
 * hold SQLite's event loop outside the scale bench's routes (docs/performance.md, "Lists bounded
 * by the page"). SQLite only, 100k people and 1M events (SCALE_EVENTS to change it), seeded by
 * scale-seed.ts as the scale bench does. Prints, with the event loop's longest stall:
 * - the migrations since 4604 (the addresses the log quotes, the team-by-role index), made as a
 *   server's start makes them, and the longest of the reads in the 3 s after;
 * - Papéis' and Times' lists (medians of 15 after 3);
 * - sign-ins' writes (a session, a trusted browser, the audit event), 3,000 with a pause of 2 ms
 *   after each and 3,000 back to back, while the checkpoint thread empties the WAL behind them;
 * - five anonymisations of people of the log;
 * - the deletion of the largest team.
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Migrator, sql } from 'kysely'
import { connect, openDatabase, type Db } from '../../server/db/database'
import { DATABASE_FILE } from '../../server/db/data-dir'
import { migrationProvider } from '../../server/db/migrations'
import { party, recordAudit } from '../../server/audit-log/record-audit'
import { anonymiseAccount } from '../../server/features/account-deletion/anonymise-account'
import { completeSignIn } from '../../server/sign-in-steps/complete-sign-in'
import { loadConfig } from '../../server/config/config'
import { listRoles } from '../../server/roles/role-store'
import {
  listTeams,
  lockTeam,
  moveMembersOut,
  moveMembersOutInSteps,
} from '../../server/roles/team-store'
import { makeTempDir, removeTempDir } from './cleanup'
import { SEED_SCHEMA } from './scale'
import { seedScale } from './scale-seed'
import { median, percentile, round } from './stats'

const events = Number(process.env.SCALE_EVENTS ?? 1_000_000)
// The seeding process makes the folder; the measuring one is given the file.
const given = process.env.YEAR_WRITES_FILE
const dir = given === undefined ? makeTempDir('painel-year-writes-') : dirname(given)
const where = { sqliteFile: given ?? join(dir, DATABASE_FILE) }
const provider = migrationProvider('sqlite')
// The schema the seeded file is left at: the start measured upgrades it from there.
const SEEDED_UP_TO = '2026-12-04-4604-scim-removed-accounts'
const loop = monitorEventLoopDelay({ resolution: 1 })

const asError = (error: unknown) =>
  error instanceof Error ? error : new Error(JSON.stringify(error))

// This process's longest garbage collection meanwhile, printed beside the loop's stalls, so that a
// stall of V8's own is told from the database's.
let gcMax = 0
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) gcMax = Math.max(gcMax, entry.duration)
}).observe({ entryTypes: ['gc'] })

/**
 * Runs `work`, answering its time, the loop's longest stall and the longest garbage collection
 * meanwhile, in ms.
 */
async function timed(
  work: () => Promise<unknown>,
): Promise<{ ms: number; loopMax: number; gcMax: number }> {
  loop.reset()
  loop.enable()
  gcMax = 0
  const started = performance.now()
  await work()
  const ms = performance.now() - started
  // One more turn, so that a stall at the very end is sampled.
  await new Promise((resolve) => setTimeout(resolve, 5))
  loop.disable()
  return { ms: round(ms, 1), loopMax: round(loop.max / 1e6, 1), gcMax: round(gcMax, 1) }
}

async function seed(): Promise<string> {
  const db = connect(where)
  const seeded = await new Migrator({ db, provider }).migrateTo(SEED_SCHEMA)
  if (seeded.error) throw asError(seeded.error)
  const facts = await seedScale(db, 'sqlite', { label: 'year', people: 100_000, events })
  const before = await new Migrator({ db, provider }).migrateTo(SEEDED_UP_TO)
  if (before.error) throw asError(before.error)
  // As the earlier version's server leaves the file when it stops (database.ts, close()): its WAL
  // folded in and emptied, and the seeding's writes on the disk. Without the sync, the first
  // fsync of the next connection waited for the file system's journal to take the seeding's
  // gigabyte: 151-230 ms, a cost of this setup only.
  await sql`pragma wal_checkpoint(TRUNCATE)`.execute(db)
  await db.destroy()
  execFileSync('sync')
  return facts.admin.id
}

async function measure(adminId: string): Promise<void> {
  // The upgrade as a server's start makes it: its connection, with its checkpoints on their thread
  // (server/db/wal-checkpointer.ts), migrated by openDatabase.
  let db!: Db
  const opened = await timed(async () => {
    db = (await openDatabase(where, { sqlite: { checkpointer: { warn: console.warn } } })).db
  })
  const names = (await new Migrator({ db, provider }).getMigrations())
    .map((migration) => migration.name)
    .filter((name) => name > SEEDED_UP_TO)
  console.log(
    `100k people, ${events} events: the start's migrations (${names.join(', ')}) in ${opened.ms} ms, loop max ${opened.loopMax} ms`,
  )
  // The first seconds after that start: one read every 5 ms, as the first requests would come.
  const waits: number[] = []
  const first = await timed(async () => {
    const until = performance.now() + 3000
    while (performance.now() < until) {
      const started = performance.now()
      await listRoles(db)
      waits.push(performance.now() - started)
      await new Promise((resolve) => setTimeout(resolve, 5))
    }
  })
  const longest = Math.max(...waits)
  console.log(
    `the 3 s after the start: ${waits.length} reads of Papéis, the longest ${round(longest, 1)} ms (read ${waits.indexOf(longest) + 1}); loop max ${first.loopMax} ms`,
  )

  for (const [label, list] of [
    ['Papéis (listRoles)', () => listRoles(db)],
    ['Times (listTeams)', () => listTeams(db)],
  ] as const) {
    for (let warm = 0; warm < 3; warm++) await list()
    const runs: { ms: number; loopMax: number }[] = []
    for (let run = 0; run < 15; run++) runs.push(await timed(list))
    console.log(
      `${label}: median ${round(median(runs.map((r) => r.ms)), 2)} ms, loop max ${Math.max(...runs.map((r) => r.loopMax))} ms`,
    )
  }

  const admin = await db
    .selectFrom('accounts')
    .selectAll()
    .where('id', '=', adminId)
    .executeTakeFirstOrThrow()

  // Each COMMIT waits for the disk on the event loop (synchronous=FULL), and may meet a
  // checkpoint's fsync on its thread (server/db/wal-checkpointer.ts): how long they hold it.
  const signingIn = await db
    .selectFrom('accounts')
    .selectAll()
    .where('status', '=', 'active')
    .orderBy('id')
    .limit(3000)
    .execute()
  const context = {
    db,
    now: () => new Date(),
    // The server's settings as a container without any given has them.
    config: loadConfig({ NODE_ENV: 'production', DATA_DIR: dir }),
  }
  const origin = {
    address: '10.0.0.1',
    audit: { ip: '10.0.0.1', userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0' },
  }
  for (const [label, pauseMs] of [
    ['a pause of 2 ms after each', 2],
    ['back to back', 0],
  ] as const) {
    const each: number[] = []
    const run = await timed(async () => {
      for (const account of signingIn) {
        const started = performance.now()
        await completeSignIn(context, account, origin, 'password')
        each.push(performance.now() - started)
        if (pauseMs > 0) await new Promise((resolve) => setTimeout(resolve, pauseMs))
      }
    })
    const sorted = [...each].sort((a, b) => a - b)
    console.log(
      `${signingIn.length} sign-ins' writes, ${label}: ${Math.round(signingIn.length / (run.ms / 1000))} a second, each p50 ${round(median(each), 1)} ms, p99 ${round(percentile(sorted, 0.99), 1)} ms, max ${round(sorted.at(-1)!, 1)} ms (sign-in ${each.indexOf(sorted.at(-1)!) + 1}); loop max ${run.loopMax} ms (longest collection ${run.gcMax} ms)`,
    )
  }
  const people = await db
    .selectFrom('accounts')
    .select('id')
    .where('status', '=', 'active')
    .where('id', '!=', admin.id)
    .orderBy('id')
    .offset(100)
    .limit(5)
    .execute()
  for (const person of people) {
    const {
      ms,
      loopMax,
      gcMax: collection,
    } = await timed(() =>
      anonymiseAccount(
        { db, now: () => new Date(), log: { warn: console.warn } as never },
        admin,
        person.id,
        { ip: null, userAgent: null },
      ),
    )
    console.log(
      `an anonymisation: ${ms} ms, loop max ${loopMax} ms (longest collection ${collection} ms)`,
    )
  }

  const largest = await db
    .selectFrom('accounts')
    .select(['team_id', (eb) => eb.fn.countAll<number>().as('people')])
    .where('team_id', 'is not', null)
    .groupBy('team_id')
    .orderBy('people', 'desc')
    .executeTakeFirstOrThrow()
  // As DELETE /api/teams/:id does it (server/features/teams/teams-routes.ts).
  const deletion = await timed(async () => {
    const actor = { actor: party(admin), origin: { ip: null, userAgent: null } }
    const movedEarlier = await moveMembersOutInSteps(db, largest.team_id!, (trx, details) =>
      recordAudit(trx, { type: 'team_deletion_started', ...actor, details }),
    )
    await db.transaction().execute(async (trx) => {
      await lockTeam(trx, largest.team_id!)
      const members = movedEarlier + (await moveMembersOut(trx, largest.team_id!))
      const team = await trx
        .deleteFrom('teams')
        .where('id', '=', largest.team_id!)
        .returning('name')
        .executeTakeFirstOrThrow()
      await recordAudit(trx, {
        type: 'team_deleted',
        ...actor,
        details: { name: team.name, members },
      })
    })
  })
  console.log(
    `deleting a team of ${largest.people}: ${deletion.ms} ms, loop max ${deletion.loopMax} ms (longest collection ${deletion.gcMax} ms)`,
  )
  await db.destroy()
}

// The measures run in a process of their own, which finds the file as a server's start would: in
// the seeding's process, with the heap the seeding left V8, 3,000 sign-ins with a pause after each
// held the loop 68.9-110.4 ms at most (three runs), and 10.8 ms in a process of its own (2026-12-02).
const measuringAdmin = process.env.YEAR_WRITES_ADMIN
if (measuringAdmin !== undefined) {
  await measure(measuringAdmin)
} else {
  try {
    const adminId = await seed()
    const measured = spawnSync(
      process.execPath,
      [...process.execArgv, fileURLToPath(import.meta.url)],
      {
        stdio: 'inherit',
        env: { ...process.env, YEAR_WRITES_FILE: where.sqliteFile, YEAR_WRITES_ADMIN: adminId },
      },
    )
    if (measured.status !== 0) process.exitCode = 1
  } finally {
    removeTempDir(dir)
  }
}

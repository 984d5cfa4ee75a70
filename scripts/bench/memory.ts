/**
 * The server's resident memory (RSS, from /proc) as a container's limit sees it:
 * - right after a first start on an empty DATA_DIR (the database created, the first admin made),
 *   once /readyz answers and a second has passed; the median of `runs` fresh starts;
 * - after 200 sign-ins (4 at a time) and 10 s of 50 connections on `/` (autocannon), on one of
 *   them: the figure a memory limit must leave room for. The peak (VmHWM) is given beside it.
 */
import autocannon from 'autocannon'
import { freePortSync } from '../free-port'
import type { BuildUnderTest } from './dist-snapshot'
import { makeTempDir, removeTempDir, stopChild } from './cleanup'
import { memoryOf, signIn, spawnPainel, waitForOk } from './painel-server'
import { sleep, spread, type Spread } from './stats'

export interface MemoryResult {
  runs: number
  afterFirstStartMb: Spread
  afterLoad: { rssMb: number; peakMb: number; signIns: number; requests: number; non2xx: number }
  samples: { afterFirstStartMb: number[] }
}

const SIGN_INS = 200
// Under the 5 tries one account may have in flight from one address (server/accounts/sign-in-limits.ts,
// accountAndAddress): every try is counted before its password is checked, so more at once
// would be answered 429 however right the password.
const SIGN_IN_CONCURRENCY = 4
const LOAD = { connections: 50, durationSeconds: 10 }

export async function measureMemory(
  build: BuildUnderTest,
  runs: number,
  log: (line: string) => void,
): Promise<MemoryResult> {
  const afterFirstStartMb: number[] = []
  let afterLoad: MemoryResult['afterLoad'] | undefined
  for (let run = 1; run <= runs; run++) {
    const dataDir = makeTempDir('painel-bench-memory-')
    // The sign-ins come from one address: its burst limit must not turn them into 429s.
    const server = spawnPainel(build, freePortSync(), dataDir, { AUTH_RATE_LIMIT: '100000' })
    try {
      await waitForOk(server, '/readyz')
      await sleep(1000)
      const pid = server.child.pid ?? 0
      afterFirstStartMb.push(memoryOf(pid).rssMb)
      log(`  after a first start ${run}/${runs}: ${afterFirstStartMb.at(-1)} MB`)
      if (run === runs) {
        for (let done = 0; done < SIGN_INS; done += SIGN_IN_CONCURRENCY) {
          await Promise.all(
            Array.from({ length: SIGN_IN_CONCURRENCY }, () => signIn(server.baseURL)),
          )
        }
        const result = await autocannon({
          url: `${server.baseURL}/`,
          connections: LOAD.connections,
          duration: LOAD.durationSeconds,
        })
        afterLoad = {
          ...memoryOf(pid),
          signIns: SIGN_INS,
          requests: result.requests.total,
          non2xx: result.non2xx,
        }
        log(
          `  after ${SIGN_INS} sign-ins and ${LOAD.durationSeconds} s of ${LOAD.connections} connections on /: ${afterLoad.rssMb} MB (peak ${afterLoad.peakMb} MB)`,
        )
      }
    } finally {
      await stopChild(server.child)
      removeTempDir(dataDir)
    }
  }
  if (!afterLoad) throw new Error('no run measured the load')
  return {
    runs,
    afterFirstStartMb: spread(afterFirstStartMb),
    afterLoad,
    samples: { afterFirstStartMb },
  }
}

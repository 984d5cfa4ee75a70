/**
 * CPU time used by processes, from Linux's /proc: under load it tells how much each server
 * worked per request, which stays comparable even when the load generator, not the server, is
 * what limits the requests per second. Elsewhere (no /proc) the figures are null.
 */
import { spawnSync } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'

let ticksPerSecond: number | undefined

function clockTicks(): number {
  ticksPerSecond ??=
    Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8', timeout: 2_000 }).stdout) || 100
  return ticksPerSecond
}

/** Fields after "pid (name) ": the name may hold spaces, never the last ')'. */
function statFields(pid: number): string[] {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')
}

/** User + system CPU milliseconds the processes have used so far; null without /proc. */
export function cpuMs(pids: readonly number[]): number | null {
  try {
    const ticks = pids.reduce((sum, pid) => {
      const fields = statFields(pid)
      // utime and stime: fields 14 and 15 of proc(5), counted from the state (field 3).
      return sum + Number(fields[11]) + Number(fields[12])
    }, 0)
    return (ticks * 1000) / clockTicks()
  } catch {
    return null
  }
}

/** The processes whose parent is `pid` (an nginx master's worker); none without /proc. */
export function childPids(pid: number): number[] {
  try {
    return readdirSync('/proc').flatMap((entry) => {
      if (!/^\d+$/.test(entry)) return []
      try {
        return Number(statFields(Number(entry))[1]) === pid ? [Number(entry)] : []
      } catch {
        return []
      }
    })
  } catch {
    return []
  }
}

/**
 * The time a process's main thread (for Node, its event loop) has run and has waited, runnable,
 * for a CPU (nanoseconds, from /proc/<pid>/task/<pid>/schedstat); null without it. A thread that waits more than it runs is
 * short of CPU: the machine is busy, whatever the thread itself does.
 */
export function schedStat(pid: number): { runNs: number; waitNs: number } | null {
  try {
    const [run, wait] = readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8').split(' ')
    return { runNs: Number(run), waitNs: Number(wait) }
  } catch {
    return null
  }
}

// Loaded with `node --import` into a server under scripts/bench/compare-starts.ts: when the
// first server of the process starts listening, writes how long the process had been running and
// the CPU it had used to stderr, from inside the process. No probe's polling, no spawn, no first
// request is in the figure, which moves far less from start to start than spawn-to-200 does.
import net from 'node:net'

// Called with the server as `this` below, as Node calls it.
// eslint-disable-next-line @typescript-eslint/unbound-method
const listen = net.Server.prototype.listen
let marked = false
net.Server.prototype.listen = function (/** @type {any[]} */ ...args) {
  this.once('listening', () => {
    if (marked) return
    marked = true
    const cpu = process.cpuUsage()
    const cpuMs = (cpu.user + cpu.system) / 1000
    process.stderr.write(`listening-mark ${performance.now().toFixed(1)} ${cpuMs.toFixed(1)}\n`)
  })
  return listen.apply(this, /** @type {Parameters<typeof listen>} */ (args))
}

import { rename, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { SMTPServer } from 'smtp-server'
import { e2e } from './test-env'

/**
 * Global setup: a real SMTP server on loopback (the panel's SMTP_URL points at it). Each message
 * it accepts is written to the run's mail folder, one file per recipient, where the tests read it.
 * Returns the teardown, which also removes the run's temporary folders.
 */
export default async function startMailCatcher(): Promise<() => Promise<void>> {
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, callback) {
      const chunks: Buffer[] = []
      stream.on('data', (chunk: Buffer) => chunks.push(chunk))
      stream.on('end', () => {
        const raw = Buffer.concat(chunks)
        // Written under another name and renamed: a test reading the folder meanwhile would
        // otherwise find the file before its bytes, and read an empty mail (seen once in CI:
        // e2e/staff-admin.spec.ts's refusal mail had no text).
        const writes = session.envelope.rcptTo.map(async ({ address }) => {
          const name = join(
            e2e.mailDir,
            `${Date.now()}-${Math.random().toString(36).slice(2)}-${address}.eml`,
          )
          await writeFile(`${name}.partial`, raw)
          await rename(`${name}.partial`, name)
        })
        Promise.all(writes).then(() => callback(), callback)
      })
    },
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(e2e.smtpPort, '127.0.0.1', () => resolve())
  })
  return async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()))
    await rm(e2e.mailDir, { recursive: true, force: true })
    await rm(e2e.dataDir, { recursive: true, force: true })
  }
}

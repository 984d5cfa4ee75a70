/**
 * The smoke set in WebKit: WebKitGTK's MiniBrowser driven through WebKitWebDriver (apt's
 * webkit2gtk-driver), since Playwright cannot drive WebKitGTK and its own WebKit cannot be
 * downloaded here. The same journeys, words and expectations as e2e/smoke/smoke.spec.ts
 * (e2e/smoke/journeys.ts).
 *
 *   npx tsx e2e/webdriver/smoke.ts       (npm run test:engines runs it after Firefox)
 *
 * It starts what the Playwright config starts for its suites: the built server (scripts/start.mjs)
 * on a free port with a fresh embedded database and a known first admin; with E2E_BASE_URL it
 * runs the read-only journeys against that panel instead. A virtual display (Xvfb) when there is
 * none. Each journey gets a browser of its own (a new session: nothing stored carries over).
 * Ends with one line, `webkit: N passed, N failed`; exit 0 only when none failed.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { findWebKitDriver } from '../../scripts/find-browser'
import { freePortSync } from '../../scripts/free-port'
import { root } from '../../scripts/paths'
import {
  APPROVAL,
  COLOUR_MODE_KEY,
  GUARD,
  pendingRegistration,
  PUBLIC_PAGES,
  SIGN_IN,
  THEME_PARAM,
} from '../smoke/journeys'
import { externalBaseURL, smokeCredentials } from '../support/target'
import { e2e } from '../support/test-env'
import { Session, until } from './client'

/** How long one journey may take (Playwright's default test timeout). */
const JOURNEY_MS = 60_000

interface Journey {
  name: string
  /** MiniBrowser --dark-mode: a dark system colour scheme from launch. */
  dark?: boolean
  /** Why it does not run here, if it does not. */
  skip?: string
  run: (browser: Session, baseURL: string) => Promise<void>
}

async function open(browser: Session, baseURL: string, path: string): Promise<void> {
  await browser.navigate(`${baseURL}${path}`)
  await browser.appStarted()
}

async function signIn(browser: Session, account: { email: string; password: string }) {
  await browser.type(await browser.waitForLabel(SIGN_IN.email), account.email)
  await browser.type(await browser.waitForLabel(SIGN_IN.password), account.password)
  await browser.click(await browser.waitForRole('button', SIGN_IN.submit))
  await browser.waitForGone('button', SIGN_IN.submit)
}

function journeys(): Journey[] {
  const account = smokeCredentials()
  const admin = { email: e2e.admin.email, password: e2e.admin.password }
  const list: Journey[] = PUBLIC_PAGES.map(({ path, heading }) => ({
    name: `shows the public page ${path}`,
    run: async (browser, baseURL) => {
      await open(browser, baseURL, `/#${path}`)
      await browser.waitForRole('heading', heading)
      await browser.waitForRoute(path)
    },
  }))
  list.push(
    {
      name: 'sends a visitor without a session to the login page',
      run: async (browser, baseURL) => {
        await open(browser, baseURL, `/#${GUARD.path}`)
        await browser.waitForRoute(GUARD.landsOn)
        await browser.waitForRole('button', SIGN_IN.submit)
      },
    },
    {
      name: 'applies ?theme=dark and ignores a value that is not allowed',
      run: async (browser, baseURL) => {
        await open(browser, baseURL, THEME_PARAM.allowed.url)
        await browser.waitForTheme(THEME_PARAM.allowed.shown)
        await open(browser, baseURL, THEME_PARAM.refused.url)
        await browser.waitForRole('button', SIGN_IN.submit)
        await browser.waitForTheme(THEME_PARAM.refused.shown)
      },
    },
    ...(['dark', 'light'] as const).map((scheme): Journey => ({
      name: `follows a ${scheme} system colour scheme in auto mode`,
      dark: scheme === 'dark',
      run: async (browser, baseURL) => {
        // No init scripts in WebDriver: stored on the origin, then the page loaded again.
        await open(browser, baseURL, '/#/404')
        await browser.execute('window.localStorage.setItem(arguments[0], "auto")', COLOUR_MODE_KEY)
        await open(browser, baseURL, `/?again#${SIGN_IN.page}`)
        await browser.waitForTheme(scheme)
      },
    })),
    {
      name: 'signs in and out with the account given',
      skip: account ? undefined : `no E2E_USER/E2E_PASSWORD for ${externalBaseURL}`,
      run: async (browser, baseURL) => {
        await open(browser, baseURL, `/#${SIGN_IN.page}`)
        await signIn(browser, account!)
        await browser.click(await browser.waitForRole('button', SIGN_IN.userMenu))
        await browser.click(await browser.waitForRole('button', SIGN_IN.signOut))
        await browser.waitForRoute(SIGN_IN.page)
        await browser.waitForRole('button', SIGN_IN.submit)
      },
    },
    {
      name: 'an admin approves a registration',
      skip: externalBaseURL ? 'makes an account: only on the panel this run starts' : undefined,
      run: async (browser, baseURL) => {
        const person = await pendingRegistration(baseURL, admin, 'webkit')
        await open(browser, baseURL, `/#${SIGN_IN.page}`)
        await signIn(browser, admin)
        await open(browser, baseURL, `/#${APPROVAL.equipe(person.email)}`)
        await browser.waitForText(APPROVAL.found, 15_000)
        await browser.click(await browser.waitForRole('button', APPROVAL.approve(person.name)))
        const dialog = await browser.waitForRole('dialog', /.*/)
        await until(`the dialog to say "${APPROVAL.dialogSays}"`, async () =>
          (await browser.text(dialog)).includes(APPROVAL.dialogSays),
        )
        await browser.click(await browser.waitForRole('button', APPROVAL.confirm, dialog))
        await browser.waitForText(APPROVAL.done(person.name))
        await until(`${person.name}'s row to say ${APPROVAL.status}`, async () => {
          for (const row of await browser.findAll('tr')) {
            const text = await browser.text(row)
            if (text.includes(person.name) && text.includes(APPROVAL.status)) return true
          }
          return false
        })
      },
    },
  )
  return list
}

// ── processes ────────────────────────────────────────────────────────────────────────────────

const started: ChildProcess[] = []
function start(command: string, args: string[], env: NodeJS.ProcessEnv = process.env) {
  const child = spawn(command, args, { cwd: root, env, stdio: ['ignore', 'ignore', 'pipe'] })
  let errors = ''
  child.stderr?.on('data', (chunk: Buffer) => (errors = (errors + String(chunk)).slice(-4000)))
  started.push(child)
  return { child, errors: () => errors }
}
/**
 * Stops what the run started, then removes the run's temporary folders (test-env.ts makes them
 * when none are named; the server's data folder was left in /tmp after every run), as
 * Playwright's teardown does for its own (e2e/support/mail-catcher.ts). A folder someone named
 * outside the temporary ones is theirs, and stays.
 */
async function stopAll(): Promise<void> {
  await Promise.all(
    started.reverse().map(async (child) => {
      if (child.exitCode !== null || child.signalCode !== null) return
      const exited = new Promise((resolve) => child.once('exit', resolve))
      child.kill('SIGTERM')
      const force = setTimeout(() => child.kill('SIGKILL'), 10_000)
      await exited
      clearTimeout(force)
    }),
  )
  for (const folder of [e2e.dataDir, e2e.mailDir]) {
    if (folder.startsWith(join(tmpdir(), 'painel-e2e-'))) {
      rmSync(folder, { recursive: true, force: true })
    }
  }
}

async function waitForHttp(url: string, timeout: number, what: string, errors: () => string) {
  await until(
    what,
    async () => (await fetch(url).catch(() => undefined))?.ok ?? false,
    timeout,
  ).catch((error: Error) => {
    throw new Error(`${error.message}\n${errors()}`)
  })
}

/** Xvfb on a display number it picks itself (-displayfd), unless there is a display already. */
async function virtualDisplay(): Promise<string> {
  if (process.env.DISPLAY) return process.env.DISPLAY
  const xvfb = spawn(
    'Xvfb',
    ['-displayfd', '3', '-screen', '0', '1280x1024x24', '-nolisten', 'tcp'],
    {
      stdio: ['ignore', 'ignore', 'ignore', 'pipe'],
    },
  )
  started.push(xvfb)
  const number = await new Promise<string>((resolve, reject) => {
    const pipe = xvfb.stdio[3] as NodeJS.ReadableStream
    pipe.on('data', (chunk: Buffer) => resolve(String(chunk).trim()))
    xvfb.on('exit', (code) => reject(new Error(`Xvfb exited (${code})`)))
  })
  return `:${number}`
}

async function ownServer(): Promise<string> {
  const server = start(process.execPath, ['scripts/start.mjs'], {
    ...process.env,
    PORT: String(e2e.port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    DATA_DIR: e2e.dataDir,
    PUBLIC_URL: e2e.baseURL,
    ADMIN_EMAIL: e2e.admin.email,
    ADMIN_PASSWORD: e2e.admin.password,
    AUTH_RATE_LIMIT: '10000',
    MFA_REQUIRED: 'off',
  })
  await waitForHttp(`${e2e.baseURL}/healthz`, 180_000, 'the panel to start', server.errors)
  return e2e.baseURL
}

// ── run ──────────────────────────────────────────────────────────────────────────────────────

async function main(): Promise<number> {
  const engine = findWebKitDriver()
  if (!engine.found || !engine.browser) {
    console.log(`webkit: cannot run: ${engine.found ? 'no browser' : engine.reason}`)
    console.log('webkit: 0 passed, 1 failed')
    return 1
  }
  const display = await virtualDisplay()
  const baseURL = externalBaseURL ?? (await ownServer())
  const driverPort = freePortSync()
  const driver = start(engine.path, [`--port=${driverPort}`], { ...process.env, DISPLAY: display })
  const driverURL = `http://127.0.0.1:${driverPort}`
  await waitForHttp(`${driverURL}/status`, 30_000, 'WebKitWebDriver', driver.errors)
  console.log(`webkit: ${engine.description}, against ${baseURL}`)

  let passed = 0
  let failed = 0
  let skipped = 0
  for (const journey of journeys()) {
    if (journey.skip) {
      skipped += 1
      console.log(`  -  ${journey.name} (skipped: ${journey.skip})`)
      continue
    }
    const began = performance.now()
    let session: Session | undefined
    try {
      const capabilities = {
        'webkitgtk:browserOptions': {
          binary: engine.browser,
          args: ['--automation', ...(journey.dark ? ['--dark-mode'] : [])],
        },
      }
      // A browser that did not come up (the command timed out) is given one more start.
      session = await Session.start(driverURL, capabilities).catch(() =>
        Session.start(driverURL, capabilities),
      )
      await session.setWindowSize(1280, 720)
      const browser = session
      await Promise.race([
        journey.run(browser, baseURL),
        new Promise((_, reject) =>
          setTimeout(
            () => reject(new Error(`timed out after ${JOURNEY_MS} ms`)),
            JOURNEY_MS,
          ).unref(),
        ),
      ])
      passed += 1
      console.log(`  ✓  ${journey.name} (${((performance.now() - began) / 1000).toFixed(1)}s)`)
    } catch (error) {
      failed += 1
      const where = session ? await session.url().catch(() => '?') : 'no session'
      console.log(`  ✘  ${journey.name} (${((performance.now() - began) / 1000).toFixed(1)}s)`)
      console.log(`     ${error instanceof Error ? error.message : String(error)}`)
      console.log(`     on ${where}`)
    } finally {
      await session?.quit().catch(() => undefined)
    }
  }
  if (skipped > 0) console.log(`webkit: ${skipped} skipped (reasons above)`)
  console.log(`webkit: ${passed} passed, ${failed} failed`)
  return failed === 0 ? 0 : 1
}

main()
  .then(async (code) => {
    await stopAll()
    process.exit(code)
  })
  .catch(async (error: unknown) => {
    await stopAll()
    console.log(`webkit: cannot run: ${error instanceof Error ? error.message : String(error)}`)
    console.log('webkit: 0 passed, 1 failed')
    process.exit(1)
  })

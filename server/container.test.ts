/**
 * The Dockerfile cannot be built here (no Docker engine in CI), so it is read instead: what it
 * runs, exposes and sets must be what the server and the build actually do. A renamed output, a
 * new default port or a moved health route then fails this test rather than a deployment.
 */
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { createServer } from 'node:http'
import { tmpdir } from 'node:os'
import { join, relative, sep } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { build } from 'esbuild'
import { serverOptions } from '../scripts/build/esbuild-options'
import { freePortSync } from '../scripts/free-port'
import { root, serverOut } from '../scripts/paths'
import { loadConfig } from './config/config'
import { HEALTH_PATH } from './health/health-path'
import { createFixtureDist, type FixtureDist } from './test/fixture-dist'
import { listenOnFreePort, testApp } from './test/helpers'

interface Instruction {
  keyword: string
  args: string
  line: number
}

/** Instructions with their continuation lines joined and comments dropped, as Docker reads them. */
function parseDockerfile(text: string): Instruction[] {
  const instructions: Instruction[] = []
  let pending: Instruction | null = null
  text.split('\n').forEach((raw, index) => {
    const line = raw.trim()
    if (line === '' || line.startsWith('#')) return
    const continues = line.endsWith('\\')
    const body = continues ? line.slice(0, -1).trim() : line
    if (pending) pending.args = `${pending.args} ${body}`.trim()
    else {
      const [keyword = '', ...rest] = body.split(/\s+/)
      pending = { keyword: keyword.toUpperCase(), args: rest.join(' '), line: index + 1 }
    }
    if (!continues) {
      instructions.push(pending)
      pending = null
    }
  })
  if (pending) instructions.push(pending)
  return instructions
}

interface Dockerfile {
  /** ARGs before the first FROM: the only ones a FROM line can use. */
  globalArgs: Map<string, string>
  stages: Instruction[][]
}

function readDockerfile(): Dockerfile {
  const instructions = parseDockerfile(readFileSync(join(root, 'Dockerfile'), 'utf8'))
  const globalArgs = new Map<string, string>()
  const stages: Instruction[][] = []
  for (const instruction of instructions) {
    if (instruction.keyword === 'FROM') stages.push([instruction])
    else if (stages.length > 0) stages.at(-1)!.push(instruction)
    else if (instruction.keyword === 'ARG') {
      const [name = '', value = ''] = instruction.args.split('=', 2)
      globalArgs.set(name, value)
    }
  }
  return { globalArgs, stages }
}

/** The one instruction of a kind in a stage (Docker would silently keep only the last). */
function single(stage: Instruction[], keyword: string): Instruction {
  const found = stage.filter((instruction) => instruction.keyword === keyword)
  assert.equal(found.length, 1, `the runtime stage should have exactly one ${keyword}`)
  return found[0]!
}

/** `["node", "<script>"]`: exec form, so no shell sits between tini and node to swallow signals. */
function execForm(instruction: Instruction, text = instruction.args): string[] {
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    assert.fail(`${instruction.keyword} (line ${instruction.line}) is not in exec form: ${text}`)
  }
  assert.ok(
    Array.isArray(parsed) && parsed.every((item): item is string => typeof item === 'string'),
    `${instruction.keyword} (line ${instruction.line}) should be a JSON array of strings`,
  )
  return parsed
}

/** ENV's KEY=value pairs of a stage (no quoting or spaces in values: this Dockerfile has none). */
function envOf(stage: Instruction[]): Map<string, string> {
  const env = new Map<string, string>()
  for (const { args } of stage.filter((instruction) => instruction.keyword === 'ENV')) {
    for (const pair of args.split(/\s+/)) {
      const at = pair.indexOf('=')
      assert.ok(at > 0, `ENV ${args}: write KEY=value pairs`)
      env.set(pair.slice(0, at), pair.slice(at + 1))
    }
  }
  return env
}

const fromRoot = (path: string) => relative(root, path).split(sep).join('/')

/** What the server build writes, by entry name, relative to the repository. */
function serverOutputs(): Map<string, string> {
  const { entryPoints, outdir } = serverOptions()
  assert.ok(outdir, 'the server build should write into a folder (outdir)')
  assert.ok(
    entryPoints && !Array.isArray(entryPoints),
    'the server build should name its entry points',
  )
  return new Map(
    Object.keys(entryPoints).map((name) => [name, fromRoot(join(outdir, `${name}.js`))]),
  )
}

interface Run {
  code: number | null
  stdout: string
  stderr: string
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: root,
      env: { ...process.env, ...env },
      timeout: 20_000,
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, stdout, stderr }))
  })
}

const { stages, globalArgs } = readDockerfile()
const runtime = stages.at(-1) ?? []
const runtimeEnv = envOf(runtime)
const serverPath = fromRoot(serverOut)
const healthcheckPath = serverOutputs().get('healthcheck') ?? 'dist/server/healthcheck.js'

describe('the Dockerfile runs what the build writes', () => {
  it('is multi-stage: a build stage, then the runtime', () => {
    assert.ok(stages.length >= 2, `expected a build and a runtime stage, found ${stages.length}`)
  })

  it(`CMD runs ${serverPath} with node, in exec form, as npm start does`, () => {
    assert.ok(
      [...serverOutputs().values()].includes(serverPath),
      `the server build should write ${serverPath} (serverOut in scripts/paths.ts)`,
    )
    assert.deepEqual(execForm(single(runtime, 'CMD')), ['node', serverPath])

    const start = readFileSync(join(root, 'scripts', 'start.mjs'), 'utf8')
    const imported = /await import\(pathToFileURL\(join\(root,\s*([^)]*)\)\)/.exec(start)?.[1]
    assert.ok(imported, 'scripts/start.mjs should `await import(pathToFileURL(join(root, ...)))`')
    const parts = [...imported.matchAll(/'([^']+)'/g)].map((match) => match[1])
    assert.equal(parts.join('/'), serverPath, 'scripts/start.mjs should run the same file')
  })

  it(`HEALTHCHECK runs ${healthcheckPath}, which the server build writes`, () => {
    assert.ok(
      serverOutputs().has('healthcheck'),
      'the server build should have a healthcheck entry',
    )
    const healthcheck = single(runtime, 'HEALTHCHECK')
    const parsed = /^((?:--[a-z-]+=\S+\s+)*)CMD\s+(.+)$/.exec(healthcheck.args)
    assert.ok(parsed, `HEALTHCHECK (line ${healthcheck.line}) should be [--flags] CMD [...]`)
    const [, flags = '', command = ''] = parsed
    for (const flag of ['interval', 'timeout', 'start-period', 'retries']) {
      assert.match(flags, new RegExp(`--${flag}=`), `HEALTHCHECK should set --${flag}`)
    }
    assert.deepEqual(execForm(healthcheck, command), ['node', healthcheckPath])
  })
})

describe('the Dockerfile matches the server configuration', () => {
  const defaultPort = String(loadConfig({}).port)

  it(`EXPOSE and ENV PORT are the server's default port (${defaultPort})`, () => {
    assert.equal(single(runtime, 'EXPOSE').args, defaultPort, 'EXPOSE')
    assert.equal(runtimeEnv.get('PORT'), defaultPort, 'ENV PORT')
  })

  it('listens on every interface, in production mode', () => {
    assert.equal(runtimeEnv.get('HOST'), '0.0.0.0', 'ENV HOST (127.0.0.1 is unreachable)')
    assert.equal(runtimeEnv.get('NODE_ENV'), 'production', 'ENV NODE_ENV')
  })

  it('keeps the data in the volume, writable by the user the server runs as', () => {
    const volume = execForm(single(runtime, 'VOLUME'))
    const dataDir = runtimeEnv.get('DATA_DIR')
    assert.ok(dataDir, 'the runtime stage should set ENV DATA_DIR')
    assert.deepEqual(volume, [dataDir], 'VOLUME should be ENV DATA_DIR')
    const user = single(runtime, 'USER').args.split(':')[0]
    const runs = runtime.filter(({ keyword }) => keyword === 'RUN').map(({ args }) => args)
    assert.ok(
      runs.some((args) =>
        new RegExp(`chown\\s+${user}\\S*\\s+(\\S+\\s+)*${dataDir}\\b`).test(args),
      ),
      `a RUN should chown ${dataDir} to ${user}`,
    )
  })

  describe(`the health path (${HEALTH_PATH})`, () => {
    let dist: FixtureDist
    before(async () => {
      dist = await createFixtureDist()
    })
    after(() => dist.cleanup())

    it('is what the server answers 200 {"status":"ok"} on', async () => {
      const { app } = await testApp(dist.distDir)
      const response = await app.inject({ url: HEALTH_PATH })
      await app.close()
      assert.equal(response.statusCode, 200)
      assert.deepEqual(response.json(), { status: 'ok' })
    })
  })
})

describe('the image is safe to run', () => {
  it('runs as a user other than root', () => {
    const user = single(runtime, 'USER').args
    assert.ok(!/^(root|0)(:|$)/.test(user), `USER is ${user}`)
  })

  it('has tini as PID 1, to pass on signals and reap zombies', () => {
    const entrypoint = execForm(single(runtime, 'ENTRYPOINT'))
    assert.match(entrypoint[0] ?? '', /(^|\/)tini$/, 'ENTRYPOINT should start tini')
    assert.equal(entrypoint.at(-1), '--', 'tini should end its own options with --')
  })

  it('builds every stage from one pinned Node image, new enough for package.json engines', () => {
    const images = stages.map((stage) => {
      const [from] = stage
      const image = from!.args.split(/\s+/).find((word) => !word.startsWith('--')) ?? ''
      return image.replace(
        /^\$\{?(\w+)\}?$/,
        (_whole, name: string) => globalArgs.get(name) ?? `(ARG ${name} has no default)`,
      )
    })
    assert.equal(new Set(images).size, 1, `the stages use different images: ${images.join(', ')}`)
    const [image = ''] = images
    const version = /^node:(\d+)\.(\d+)\.(\d+)-[a-z]+-slim(@sha256:[0-9a-f]{64})?$/.exec(image)
    assert.ok(version, `${image} should be node:<major.minor.patch>-<debian>-slim`)

    const { engines } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
      engines?: { node?: string }
    }
    const minimum = /^>=\s*(\d+)(?:\.(\d+))?/.exec(engines?.node ?? '')
    assert.ok(minimum, `package.json engines.node should be ">=x.y", not ${engines?.node}`)
    const [major, minor] = [Number(version[1]), Number(version[2])]
    const [needMajor, needMinor] = [Number(minimum[1]), Number(minimum[2] ?? 0)]
    assert.ok(
      major > needMajor || (major === needMajor && minor >= needMinor),
      `${image} is older than engines.node ${engines?.node}`,
    )
  })
})

describe('the healthcheck program', () => {
  let dir: string
  let program: string
  let dist: FixtureDist

  // Compiled with the server build's own options, then run by plain node from a folder without
  // node_modules, as the container runs it: an accidental package import fails here.
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'painel-healthcheck-'))
    const { entryPoints } = serverOptions()
    const source = (entryPoints as Record<string, string>).healthcheck
    assert.ok(source, 'the server build should have a healthcheck entry')
    await build({
      ...serverOptions(),
      entryPoints: { healthcheck: source },
      outdir: dir,
      metafile: false,
      logLevel: 'silent',
    })
    await writeFile(join(dir, 'package.json'), JSON.stringify({ type: 'module' }))
    program = join(dir, 'healthcheck.js')
    dist = await createFixtureDist()
  })
  after(async () => {
    await rm(dir, { recursive: true, force: true })
    await dist.cleanup()
  })

  const check = (port: string) => run(process.execPath, [program], { PORT: port })

  it('exits 0 when the server answers', async () => {
    const { app } = await testApp(dist.distDir)
    const port = await listenOnFreePort(app)
    const result = await check(String(port))
    await app.close()
    assert.equal(result.code, 0, `exit code ${result.code}; stderr: ${result.stderr}`)
    assert.equal(result.stderr, '')
  })

  it('exits 1, with a message, when the health path answers anything but 200', async () => {
    const server = createServer((_request, response) => response.writeHead(503).end())
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const address = server.address()
    assert.ok(address && typeof address === 'object')
    const result = await check(String(address.port))
    server.close()
    assert.equal(result.code, 1)
    assert.match(result.stderr, new RegExp(`^healthcheck: GET .*${HEALTH_PATH} answered 503\\n$`))
  })

  it('exits 1, with a message, when nothing listens on the port', async () => {
    const result = await check(String(freePortSync()))
    assert.equal(result.code, 1)
    assert.match(result.stderr, /^healthcheck: GET .* failed: .*ECONNREFUSED/)
  })

  for (const port of ['abc', '0', '65536', '-1', '8080x']) {
    it(`exits 1, naming PORT, when PORT=${port}`, async () => {
      const result = await check(port)
      assert.equal(result.code, 1)
      assert.match(result.stderr, /^healthcheck: PORT=".*" is not a port from 1 to 65535\n$/)
    })
  }
})

describe('scripts/lint-dockerfile.ts', () => {
  const lint = (...args: string[]) =>
    run(process.execPath, ['--import', 'tsx', join('scripts', 'lint-dockerfile.ts'), ...args])

  it('finds nothing to fix in the Dockerfile', async () => {
    const result = await lint()
    assert.equal(result.code, 0, result.stdout + result.stderr)
  })

  it('fails when the Dockerfile is missing', async () => {
    const result = await lint(join(tmpdir(), 'painel-no-such-dir', 'Dockerfile'))
    assert.equal(result.code, 1)
    assert.match(result.stderr, /not found/)
  })
})

describe('.dockerignore', () => {
  const patterns = readFileSync(join(root, '.dockerignore'), 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))

  it('keeps installed and built files, data and secrets out of the build context', () => {
    for (const pattern of ['node_modules', 'dist', 'data', '.git', '.env*']) {
      assert.ok(patterns.includes(pattern), `.dockerignore should list ${pattern}`)
    }
  })

  it('keeps in everything the build stage copies', () => {
    const copied = stages
      .flat()
      .filter(({ keyword, args }) => keyword === 'COPY' && !args.startsWith('--from'))
      .flatMap(({ args }) => args.split(/\s+/).slice(0, -1))
    assert.ok(copied.includes('package-lock.json'), 'the build should copy package-lock.json')
    for (const source of copied) {
      assert.ok(!patterns.includes(source), `.dockerignore leaves out ${source}, which is copied`)
    }
  })
})

import assert from 'node:assert/strict'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { after, describe, it } from 'node:test'
import { root } from './paths'
import { checkImports } from './lint-imports'

const trees: string[] = []
after(() => Promise.all(trees.map((tree) => rm(tree, { recursive: true, force: true }))))

/** A small tree of client/, server/ and common/ files, as given. */
async function tree(files: Record<string, string>): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), 'painel-imports-'))
  trees.push(folder)
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(folder, path)), { recursive: true })
    await writeFile(join(folder, path), text)
  }
  return folder
}

const CLEAN = {
  'common/rules.ts': 'export const n = 1\n',
  'client/src/app.ts': "import { n } from '../../common/rules'\nexport const a = n\n",
  'server/app.ts': "import { n } from '../common/rules'\nexport const s = n\n",
}

describe('the import check of npm run lint', () => {
  it('passes the project as it is', () => {
    assert.deepEqual(checkImports(root), [])
  })

  it('passes a tree that follows client → common ← server', async () => {
    assert.deepEqual(checkImports(await tree(CLEAN)), [])
  })

  it('refuses a client file importing the server, naming the file and line', async () => {
    const problems = checkImports(
      await tree({
        ...CLEAN,
        'client/src/app.ts': "export const a = 1\nimport '../../server/app'\n",
      }),
    )
    assert.equal(problems.length, 1)
    assert.equal(problems[0]?.file, 'client/src/app.ts:2')
    assert.match(problems[0]?.message ?? '', /client may not import server/)
  })

  it('refuses the server importing the client, type-only imports included', async () => {
    const problems = checkImports(
      await tree({
        ...CLEAN,
        'server/app.ts': "import type { a } from '../client/src/app'\nexport type A = typeof a\n",
      }),
    )
    assert.match(problems[0]?.message ?? '', /server may not import client/)
  })

  it('refuses common/ importing either side', async () => {
    const problems = checkImports(
      await tree({ ...CLEAN, 'common/rules.ts': "import '../server/app'\nexport const n = 1\n" }),
    )
    assert.ok(problems.some((problem) => /common\/ is shared/.test(problem.message)))
  })

  it('refuses a cycle, a dynamic import in it included, and reports it once', async () => {
    const problems = checkImports(
      await tree({
        ...CLEAN,
        'client/src/table.ts': "import { load } from './loaders'\nexport const t = [load]\n",
        'client/src/loaders.ts':
          "export const load = () => import('./screen')\nexport const x = 1\n",
        'client/src/screen.ts': "import { t } from './table'\nexport default t\n",
      }),
    )
    assert.equal(problems.length, 1, JSON.stringify(problems))
    assert.match(problems[0]?.message ?? '', /import cycle: .*table\.ts → .*loaders\.ts/)
  })

  it('refuses two folders of a side tied in a loop, though no file is, naming an import of each tie', async () => {
    const problems = checkImports(
      await tree({
        ...CLEAN,
        'server/db/schema.ts': 'export type Db = {}\n',
        'server/db/migrations.ts':
          "import { key } from '../roles/name-key'\nexport const m = key\n",
        'server/roles/name-key.ts': 'export const key = 1\n',
        'server/roles/store.ts': "import type { Db } from '../db/schema'\nexport type S = Db\n",
      }),
    )
    assert.equal(problems.length, 1, JSON.stringify(problems))
    assert.match(problems[0]?.message ?? '', /folders tied in a cycle: server\/db ↔ server\/roles/)
    assert.match(
      problems[0]?.message ?? '',
      /server\/db\/migrations\.ts:1 imports server\/roles\/name-key\.ts/,
    )
    assert.match(
      problems[0]?.message ?? '',
      /server\/roles\/store\.ts:1 imports server\/db\/schema\.ts/,
    )
  })

  it("passes folders in one order, the side's root files among them, and tests that reach back", async () => {
    const problems = checkImports(
      await tree({
        ...CLEAN,
        'server/db/schema.ts': 'export type Db = {}\n',
        'server/roles/store.ts': "import type { Db } from '../db/schema'\nexport type S = Db\n",
        'server/main.ts': "import type { S } from './roles/store'\nexport type M = S\n",
        'server/db/schema.test.ts': "import type { M } from '../main'\nexport type T = M\n",
      }),
    )
    assert.deepEqual(problems, [])
  })

  describe('features', () => {
    const FEATURES = {
      ...CLEAN,
      'client/src/features/staff/staff-route.ts':
        "import { button } from '../../ui/button'\nexport const staff = button\n",
      'client/src/features/audit/audit-route.ts': 'export const audit = 1\n',
      'client/src/ui/button.ts': 'export const button = 1\n',
      'client/src/app/routes.ts':
        "import { staff } from '../features/staff/staff-route'\n" +
        "import { audit } from '../features/audit/audit-route'\nexport const all = [staff, audit]\n",
      'client/src/main.tsx': "import { all } from './app/routes'\nexport default all\n",
      'server/features/staff/staff-routes.ts':
        "import { record } from '../../audit-log/record'\nexport const staff = record\n",
      'server/features/audit/audit-routes.ts': 'export const audit = 1\n',
      'server/audit-log/record.ts': 'export const record = 1\n',
      'server/built-in-api.ts':
        "import { staff } from '../features/staff/staff-routes'\n" +
        "import { audit } from '../features/audit/audit-routes'\nexport const all = [staff, audit]\n",
    }

    it('passes features that use shared code and a composition root that puts them together', async () => {
      assert.deepEqual(checkImports(await tree(FEATURES)), [])
    })

    for (const side of ['client/src', 'server'] as const) {
      const suffix = side === 'server' ? 'routes' : 'route'
      it(`refuses a ${side} feature importing another feature`, async () => {
        const problems = checkImports(
          await tree({
            ...FEATURES,
            [`${side}/features/audit/audit-${suffix}.ts`]: `export const audit = 1\nimport '../staff/staff-${suffix}'\n`,
          }),
        )
        assert.equal(problems.length, 1, JSON.stringify(problems))
        assert.equal(problems[0]?.file, `${side}/features/audit/audit-${suffix}.ts:2`)
        assert.match(problems[0]?.message ?? '', /features do not import each other/)
      })

      it(`refuses ${side}'s shared code importing a feature, type-only imports included`, async () => {
        const shared = side === 'server' ? 'server/audit-log/record.ts' : 'client/src/ui/button.ts'
        const problems = checkImports(
          await tree({
            ...FEATURES,
            [shared]: `import type { audit } from '../features/audit/audit-${suffix}'\nexport const x: typeof audit = 1\nexport const record = 1, button = 1\n`,
          }),
        )
        assert.equal(problems.length, 1, JSON.stringify(problems))
        assert.match(problems[0]?.message ?? '', /shared code imports no feature/)
      })
    }

    it('refuses anything but the composition root importing it', async () => {
      const problems = checkImports(
        await tree({
          ...FEATURES,
          'client/src/ui/button.ts': "import '../app/routes'\nexport const button = 1\n",
        }),
      )
      assert.ok(
        problems.some((problem) => /only the composition root imports/.test(problem.message)),
        JSON.stringify(problems),
      )
    })

    it('lets a test reach across features, but not across client and server', async () => {
      const problems = checkImports(
        await tree({
          ...FEATURES,
          'server/features/audit/audit.test.ts':
            "import '../staff/staff-routes'\nimport '../../../client/src/ui/button'\n",
        }),
      )
      assert.equal(problems.length, 1, JSON.stringify(problems))
      assert.match(problems[0]?.message ?? '', /server may not import client/)
    })
  })
})

import assert from 'node:assert/strict'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, describe, it } from 'node:test'
import { exportMap, rewritePackageImports } from './per-file-imports'

describe('per-file imports', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'painel-exports-'))
  after(() => rm(dir, { recursive: true, force: true }))
  const index = join(dir, 'index.js')
  await writeFile(
    index,
    [
      "export { CAlert } from './components/alert/CAlert.js';",
      "export { CButton } from './components/button/CButton.js';",
      "export { CCard, CCardBody } from './components/card/index.js';",
      "export { useColorModes as useModes } from './hooks/useColorModes.js';",
      '//# sourceMappingURL=index.js.map',
    ].join('\n'),
  )
  const map = exportMap(index)

  it('reads every export of the index', () => {
    assert.deepEqual([...map.keys()], ['CAlert', 'CButton', 'CCard', 'CCardBody', 'useModes'])
    assert.equal(map.get('CCardBody'), join(dir, 'components/card/index.js'))
  })

  it('imports each name from its own file, keeping aliases', () => {
    const source =
      "import { CButton, CCard as Card,\n  CCardBody } from '@coreui/react'\nconst x = 1"
    assert.equal(
      rewritePackageImports(source, '@coreui/react', map),
      [
        `import { CButton } from ${JSON.stringify(join(dir, 'components/button/CButton.js'))}`,
        `import { CCard as Card, CCardBody } from ${JSON.stringify(join(dir, 'components/card/index.js'))}`,
        'const x = 1',
      ].join('\n'),
    )
  })

  it('leaves type imports and unknown names on the package', () => {
    const source = "import { CAlert, type CAlertProps, CUnknown } from '@coreui/react';"
    assert.equal(
      rewritePackageImports(source, '@coreui/react', map),
      [
        `import { CAlert } from ${JSON.stringify(join(dir, 'components/alert/CAlert.js'))}`,
        'import { type CAlertProps, CUnknown } from "@coreui/react"',
      ].join('\n'),
    )
  })

  it('touches neither other packages nor default imports', () => {
    const source =
      "import CIcon from '@coreui/icons-react'\nimport { CButton } from '@coreui/react-pro'"
    assert.equal(rewritePackageImports(source, '@coreui/react', map), source)
  })
})

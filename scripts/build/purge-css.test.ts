import assert from 'node:assert/strict'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import {
  composedClassPrefixes,
  familyPattern,
  familyPatternFor,
  literalWords,
  purgeStylesheet,
  withoutOldWebkitLogicalProperties,
} from './purge-css'

describe('composed class families', () => {
  it('finds the prefixes code composes classes from', () => {
    const sources = [
      'classNames(`btn-${color}`, { [`btn-${variant}-${color}`]: variant })',
      'push(`col${infix}-${span}`); push(`row-cols${infix}-${n}`)',
      'const url = `api/${path}`; const auth = `Bearer ${token}`',
      '_b["icon-".concat(size)] = size; var c = "avatar-" + size',
    ]
    assert.deepEqual(composedClassPrefixes(sources), [
      'avatar-',
      'btn-',
      'col',
      'icon-',
      'row-cols',
    ])
  })

  it('keeps a whole family, or only its colour words where that is what is composed', () => {
    assert.equal(familyPattern('spinner-').test('spinner-grow-sm'), true)
    assert.equal(familyPattern('col').test('col-md-8'), true)
    assert.equal(familyPattern('col').test('col'), true)
    assert.equal(familyPattern('col').test('collapse'), false)
    assert.equal(familyPattern('text-').test('text-primary'), true)
    assert.equal(familyPattern('text-').test('text-body-secondary'), true)
    assert.equal(familyPattern('text-').test('text-truncate'), false)
    assert.equal(familyPattern('btn-').test('btn-outline-secondary'), true)
    assert.equal(familyPattern('btn-').test('btn-group'), false)
  })
})

describe('purgeStylesheet', () => {
  it('keeps what the content uses and what it composes, and drops the rest', async (t) => {
    const css = [
      '.card{a:1;color:var(--cui-used)}',
      '.accordion{b:2}',
      '.spinner-grow{c:3}',
      '.col-md-8{d:4}',
      '[data-coreui-theme=dark] .card{e:5}',
      '[data-coreui-theme=dark] .accordion{f:6}',
      ':root{--cui-used:1;--cui-unused:2;--cui-is-mobile:3}',
    ].join('')
    const dir = await mkdtemp(join(tmpdir(), 'painel-purge-'))
    t.after(() => rm(dir, { recursive: true, force: true }))
    const file = join(dir, 'component.js')
    await writeFile(
      file,
      'className: "card", cls: `spinner-${variant}`, grid: `col${infix}-${span}`, ' +
        "mobile: style.getPropertyValue('--cui-is-mobile')",
    )
    const appCss = join(dir, 'app.css')
    await writeFile(appCss, '.wrapper{padding:var(--cui-from-app)}')
    const purged = await purgeStylesheet(css.replace('}', '}:root{--cui-from-app:4}'), [
      file,
      appCss,
    ])
    assert.match(purged, /\.card\{a:1;/)
    assert.match(purged, /\.spinner-grow/)
    assert.match(purged, /\.col-md-8/)
    assert.match(purged, /\[data-coreui-theme=dark\] \.card/)
    assert.match(purged, /--cui-used:1/)
    // Read by CoreUI's JavaScript only: kept although no rule uses it.
    assert.match(purged, /--cui-is-mobile:3/)
    // Read by the app's own (unpurged) stylesheet.
    assert.match(purged, /--cui-from-app:4/)
    assert.doesNotMatch(purged, /--cui-unused/)
    assert.doesNotMatch(purged, /accordion/)
  })
})

describe('withoutOldWebkitLogicalProperties', () => {
  it('drops the prefixed copy of a logical margin or padding, keeping the standard one', () => {
    assert.equal(
      withoutOldWebkitLogicalProperties(
        '.a{-webkit-margin-start:0;margin-inline-start:0}.b{-webkit-padding-end:1rem}.c{-webkit-appearance:none}',
      ),
      '.a{margin-inline-start:0}.b{}.c{-webkit-appearance:none}',
    )
  })
})

describe('familyPatternFor (one page: only the words its own code passes)', () => {
  const pattern = familyPatternFor('btn-', new Set(['primary', 'ghost', 'secondary']))

  it('keeps the classes those words compose, one or two of them', () => {
    for (const kept of ['btn-primary', 'btn-ghost-secondary', 'btn-secondary'])
      assert.match(kept, pattern)
  })

  it('drops the family members no word composes', () => {
    for (const dropped of ['btn-info', 'btn-outline-primary', 'btn-primary-x', 'xbtn-primary'])
      assert.doesNotMatch(dropped, pattern)
  })

  it('reads one-word string literals, in any quotes, and nothing else', () => {
    const words = literalWords([
      `color="primary" variant={'ghost'} x=\`dark\` y="two words" z='Upper'`,
    ])
    assert.deepEqual([...words].sort(), ['dark', 'ghost', 'primary'])
  })
})

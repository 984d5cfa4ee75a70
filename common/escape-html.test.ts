import assert from 'node:assert/strict'
import { it } from 'node:test'
import { escapeHtml } from './escape-html'

it('writes the five characters that could end a tag or a quoted attribute as entities', () => {
  assert.equal(
    escapeHtml(`<a href="x" title='y'>Tom & Jerry</a>`),
    '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;Tom &amp; Jerry&lt;/a&gt;',
  )
})

it('leaves everything else as it is, accents and entities already written included', () => {
  assert.equal(escapeHtml('Conceição — São Paulo'), 'Conceição — São Paulo')
  // Escaped once more, not taken for an entity: the text said "&amp;", and so does the page.
  assert.equal(escapeHtml('&amp;'), '&amp;amp;')
  assert.equal(escapeHtml(''), '')
})

it('leaves nothing that can open a script or close an attribute, whatever the text', () => {
  const hostile = `"><script>alert('x')</script><img src=x onerror="y">`
  const escaped = escapeHtml(hostile)
  assert.doesNotMatch(escaped, /[<>"']/)
})

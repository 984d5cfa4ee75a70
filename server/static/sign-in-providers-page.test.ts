import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import {
  PROVIDERS_DATA_ID,
  PROVIDERS_SLOT,
  readProviderButtons,
} from '../../common/sign-in-providers'
import { inlineStyleHashes } from '../http/security'
import { PROVIDER_MARKS } from '../../common/provider-marks'
import { markSvg, withoutPasswordSignIn, withSignInProviders } from './sign-in-providers-page'

const PAGE = `<!doctype html><html><body><div id="root"><form></form>${PROVIDERS_SLOT}<hr></div></body></html>`

describe('withSignInProviders', () => {
  it('fills the slot with one plain link per provider, and the data block with the same', () => {
    const html = withSignInProviders(PAGE, [
      { name: 'corp', text: 'Entrar com SSO da Empresa', mark: 'key' },
      { name: 'govbr', text: 'Entrar com gov.br', mark: 'govbr' },
    ])
    assert.match(
      html,
      /<div id="painel-sign-in-providers"><a class="btn btn-outline-secondary w-100 mt-3 [^"]*" href="\/api\/auth\/oidc\/corp\/start"><svg [^>]+>.*?<\/svg>Entrar com SSO da Empresa<\/a><a [^>]+href="\/api\/auth\/oidc\/govbr\/start"><svg [^>]+>.*?<\/svg>Entrar com gov.br<\/a><\/div><hr>/,
    )
    const data = new RegExp(
      `<script type="application/json" id="${PROVIDERS_DATA_ID}">(.*?)</script></body>`,
    ).exec(html)
    assert.deepEqual(readProviderButtons(data?.[1]), [
      { name: 'corp', text: 'Entrar com SSO da Empresa', mark: 'key' },
      { name: 'govbr', text: 'Entrar com gov.br', mark: 'govbr' },
    ])
    // No script that runs, no style: the page's CSP has nothing new to allow.
    assert.deepEqual(inlineStyleHashes(html), inlineStyleHashes(PAGE))
  })

  it('escapes a label in the markup and in the data block', () => {
    const label = `</script><script>alert(1)</script> & "<b>'`
    const html = withSignInProviders(PAGE, [{ name: 'corp', text: label, mark: 'key' }])
    assert.equal(html.match(/<script/g)?.length, 1, 'only the data block')
    assert.ok(
      html.includes(
        '&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;&lt;b&gt;&#39;',
      ),
    )
    const data = /<script type="application\/json" id="painel-providers">(.*?)<\/script>/.exec(html)
    assert.deepEqual(readProviderButtons(data?.[1]), [{ name: 'corp', text: label, mark: 'key' }])
  })

  it('leaves the page as built without providers or without the slot', () => {
    assert.equal(withSignInProviders(PAGE, []), PAGE)
    const unprerendered = '<!doctype html><html><body><div id="root"></div></body></html>'
    assert.equal(
      withSignInProviders(unprerendered, [{ name: 'corp', text: 'x', mark: 'key' }]),
      unprerendered,
    )
  })

  it('reads back nothing from a data block that is not a list of buttons', () => {
    for (const junk of [
      null,
      '',
      '{',
      '{}',
      '[1]',
      '[{"name":"../x","text":"a"}]',
      '[{"name":"a"}]',
      '[{"name":"a","text":"b"}]',
      '[{"name":"a","text":"b","mark":"<script>"}]',
    ]) {
      assert.deepEqual(readProviderButtons(junk), [], String(junk))
    }
  })
})

describe('markSvg', () => {
  it('draws each mark inline, hidden from screen readers, with no style attribute the CSP would block', () => {
    for (const mark of PROVIDER_MARKS) {
      const svg = markSvg(mark)
      assert.match(
        svg,
        /^<svg width="20" height="20" viewBox="0 0 24 24" aria-hidden="true" focusable="false">(<(path|rect|circle) [^<>]+\/>)+<\/svg>$/,
        mark,
      )
      assert.doesNotMatch(svg, /style=|href=|<script|url\(/, mark)
    }
    // The brands' own colours.
    assert.match(markSvg('google'), /#4285F4.*#34A853.*#FBBC05.*#EA4335/)
    assert.match(markSvg('microsoft'), /#F25022.*#7FBA00.*#00A4EF.*#FFB900/)
    assert.match(markSvg('govbr'), /#1351B4.*#FFCD07.*#168821/)
  })
})

describe('withoutPasswordSignIn', () => {
  const built = `<!doctype html><html><head><style>body{margin:0}</style></head><body><div id="root" data-prerendered="sign-in"><form class="painel-password-part"></form></div></body></html>`

  it('marks #root and adds a style the CSP allows by its hash', () => {
    const html = withoutPasswordSignIn(built)
    assert.match(html, /<div id="root" data-password-sign-in="off" data-prerendered="sign-in">/)
    assert.match(
      html,
      /#root\[data-password-sign-in=off\] \.painel-password-part,#root\[data-password-sign-in\] \.painel-registration\{display:none!important\}/,
    )
    assert.equal(inlineStyleHashes(html).length, 2, 'the build’s style and this one, each by hash')
    assert.doesNotMatch(html, /<script/)
  })

  it('leaves a page without #root or <head> alone', () => {
    assert.equal(withoutPasswordSignIn('<p>x</p>'), '<p>x</p>')
  })
})

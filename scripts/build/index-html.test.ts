import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { HEAD_MARKER, renderIndexHtml, ROOT_ELEMENT } from './index-html'

const TEMPLATE = `<html><head>${HEAD_MARKER}</head><body>${ROOT_ELEMENT}</body></html>`
const ASSETS = {
  colorModeScript: 'assets/color-mode-boot-A.js',
  stylesheets: ['assets/main-B.css'],
  entryScript: 'assets/main-C.js',
  modulePreloads: ['assets/chunk-D.js'],
  favicon: 'data:image/svg+xml,x',
}

describe('renderIndexHtml', () => {
  it('puts the prerendered page in #root and the spinner beside it', () => {
    const html = renderIndexHtml(TEMPLATE, {
      ...ASSETS,
      prerendered: { page: '<main>form</main>', spinner: '<div>spin</div>' },
    })
    assert.match(
      html,
      /<body><div id="root" data-prerendered="sign-in"><main>form<\/main><\/div><div class="painel-boot-spinner"><div>spin<\/div><\/div><\/body>/,
    )
  })

  it('leaves #root empty without prerendering', () => {
    const html = renderIndexHtml(TEMPLATE, ASSETS)
    assert.ok(html.includes(`<body>${ROOT_ELEMENT}</body>`))
    assert.ok(!html.includes('painel-boot-spinner'))
  })

  it('names the boot script before the stylesheet, and the entry as a module', () => {
    const html = renderIndexHtml(TEMPLATE, ASSETS)
    assert.ok(html.indexOf('color-mode-boot-A.js') < html.indexOf('main-B.css'))
    assert.match(html, /<link rel="modulepreload" href="assets\/chunk-D.js">/)
    assert.match(html, /<script type="module" src="assets\/main-C.js"><\/script>/)
  })

  it("with the page prerendered, names the app's scripts for the boot script and loads none", () => {
    const html = renderIndexHtml(TEMPLATE, {
      ...ASSETS,
      prerendered: { page: '<main>form</main>', spinner: '' },
    })
    assert.match(html, /<meta name="painel-app" content="assets\/main-C.js assets\/chunk-D.js">/)
    assert.doesNotMatch(html, /<script type="module"|modulepreload/)
  })

  it("with the sign-in page's CSS inline, links no stylesheet and names it for the app", () => {
    const html = renderIndexHtml(TEMPLATE, {
      ...ASSETS,
      prerendered: { page: '<main>form</main>', spinner: '' },
      inlineStyle: '.form-control{display:block}',
    })
    assert.match(html, /<style>\.form-control\{display:block\}<\/style>/)
    assert.match(html, /<meta name="painel-stylesheet" content="assets\/main-B.css">/)
    assert.doesNotMatch(html, /<link rel="stylesheet"/)
  })

  it('with the page prerendered, can put the boot script in the page instead of its URL', () => {
    const html = renderIndexHtml(TEMPLATE, {
      ...ASSETS,
      prerendered: { page: '<main>form</main>', spinner: '' },
      inlineColorModeScript: '(()=>{document.documentElement.dataset.x="1"})();',
    })
    assert.match(
      html,
      /<script>\(\(\)=>\{document\.documentElement\.dataset\.x="1"\}\)\(\);<\/script>/,
    )
    assert.doesNotMatch(html, /color-mode-boot-A\.js/)
    assert.ok(html.indexOf('<script>') < html.indexOf('painel-app'))
  })

  it('refuses an inline boot script that would end its <script> early, or without the prerendered page', () => {
    const prerendered = { page: '', spinner: '' }
    assert.throws(
      () =>
        renderIndexHtml(TEMPLATE, {
          ...ASSETS,
          prerendered,
          inlineColorModeScript: 'a("</SCRIPT>")',
        }),
      /contains "<\/script"/,
    )
    assert.throws(
      () => renderIndexHtml(TEMPLATE, { ...ASSETS, inlineColorModeScript: 'a()' }),
      /only for the prerendered sign-in page/,
    )
  })

  it('refuses inline CSS that would end its <style> early, or without the prerendered page', () => {
    const prerendered = { page: '', spinner: '' }
    assert.throws(
      () => renderIndexHtml(TEMPLATE, { ...ASSETS, prerendered, inlineStyle: 'a{}</STYLE><b>' }),
      /contains "<\/style"/,
    )
    assert.throws(
      () => renderIndexHtml(TEMPLATE, { ...ASSETS, inlineStyle: 'a{}' }),
      /only for the prerendered sign-in page/,
    )
  })

  it('refuses a template without an empty #root to prerender into', () => {
    assert.throws(
      () =>
        renderIndexHtml(`<head>${HEAD_MARKER}</head><div id="root">x</div>`, {
          ...ASSETS,
          prerendered: { page: '', spinner: '' },
        }),
      /no empty <div id="root"><\/div>/,
    )
  })
})

import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { appReducer, createAppStore, initialState } from './store'

describe('appReducer', () => {
  it('starts as the fixed contract says (docs/architecture.md)', () => {
    assert.deepEqual(appReducer(undefined, { type: '@@INIT' }), {
      sidebarShow: true,
      theme: 'light',
    })
  })

  it('merges the fields a set action gives, keeping the others', () => {
    const hidden = appReducer(initialState, { type: 'set', sidebarShow: false } as never)
    assert.deepEqual(hidden, { sidebarShow: false, theme: 'light' })
    const dark = appReducer(hidden, { type: 'set', theme: 'dark' } as never)
    assert.deepEqual(dark, { sidebarShow: false, theme: 'dark' })
    const both = appReducer(dark, { type: 'set', sidebarShow: true, theme: 'auto' } as never)
    assert.deepEqual(both, { sidebarShow: true, theme: 'auto' })
  })

  it('ignores other action types', () => {
    const state = { sidebarShow: false, theme: 'dark' as const }
    assert.equal(appReducer(state, { type: 'toggle', sidebarShow: true } as never), state)
  })

  it('ignores unknown and undefined fields', () => {
    const next = appReducer(initialState, { type: 'set', extra: 1, theme: undefined } as never)
    assert.deepEqual(next, initialState)
    assert.equal('extra' in next, false)
  })

  it('keeps the same object when nothing changes, so subscribers do not re-render', () => {
    assert.equal(
      appReducer(initialState, { type: 'set', sidebarShow: true } as never),
      initialState,
    )
  })
})

describe('createAppStore', () => {
  it('dispatches set through redux', () => {
    const store = createAppStore({ theme: 'dark' })
    store.dispatch({ type: 'set', sidebarShow: false })
    assert.deepEqual(store.getState(), { sidebarShow: false, theme: 'dark' })
  })
})

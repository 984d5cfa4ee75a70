import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import fc from 'fast-check'
import { compareNames, nameSortKey } from './name-order'

const byKey = (names: string[]) =>
  [...names].sort((a, b) => {
    const [ka, kb] = [nameSortKey(a), nameSortKey(b)]
    return ka < kb ? -1 : ka > kb ? 1 : 0
  })

describe('nameSortKey', () => {
  it('puts names in Portuguese order: Úrsula before Yasmin, João before José, Ção with the Cs', () => {
    assert.deepEqual(byKey(['Yasmin', 'Úrsula', 'José', 'João', 'Zé', 'Çirilo', 'Carla', 'Dora']), [
      'Carla',
      'Çirilo',
      'Dora',
      'João',
      'José',
      'Úrsula',
      'Yasmin',
      'Zé',
    ])
  })

  it('ignores case and accents only: "ANA" and "Aná" share a key, "Ana Luísa" and "Analu" do not', () => {
    assert.equal(nameSortKey('ANA'), nameSortKey('Aná'))
    assert.notEqual(nameSortKey('Ana Luísa'), nameSortKey('Analu'))
    assert.ok(nameSortKey('Ana Luísa') < nameSortKey('Analu'), 'a space sorts before letters')
  })

  it('agrees with Intl.Collator("pt-BR") on names whose keys differ', () => {
    const letter = fc.constantFrom(
      ...'aáâãàbcçdeéêfghiíjklmnoóôõpqrstuúüvwxyzAÁÂÃBCÇDEÉÊIÍOÓÔÕUÚ'.split(''),
    )
    const word = fc.array(letter, { minLength: 1, maxLength: 8 }).map((letters) => letters.join(''))
    const name = fc.array(word, { minLength: 1, maxLength: 3 }).map((words) => words.join(' '))
    fc.assert(
      fc.property(name, name, (a, b) => {
        const [ka, kb] = [nameSortKey(a), nameSortKey(b)]
        if (ka === kb) return
        assert.equal(Math.sign(compareNames(a, b)), ka < kb ? -1 : 1, `${a} / ${b}`)
      }),
      { numRuns: 2000 },
    )
  })
})

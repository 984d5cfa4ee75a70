import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { CsvClock, csvField, inPieces } from './audit-csv'

describe('the CSV export, line by line', () => {
  it('writes each instant in the zone asked for, with the offset of that instant, across a change of offset', () => {
    // New York moved its clocks forward at 2026-03-08 07:00 UTC (02:00 local became 03:00).
    const clock = new CsvClock('America/New_York')
    const instants = [
      ['2026-03-08T06:58:00Z', '2026-03-08 01:58 -05:00'],
      ['2026-03-08T06:59:30Z', '2026-03-08 01:59 -05:00'],
      ['2026-03-08T07:00:00Z', '2026-03-08 03:00 -04:00'],
      ['2026-03-08T07:14:00Z', '2026-03-08 03:14 -04:00'],
      // Back to before the change, as a log read newest first then filtered again may go.
      ['2026-03-08T06:45:00Z', '2026-03-08 01:45 -05:00'],
      ['2026-11-01T05:59:00Z', '2026-11-01 01:59 -04:00'],
      ['2026-11-01T06:00:00Z', '2026-11-01 01:00 -05:00'],
    ] as const
    for (const [iso, expected] of instants) assert.equal(clock.time(new Date(iso)), expected, iso)
    assert.equal(
      new CsvClock('America/Sao_Paulo').time(new Date('2026-11-25T17:03:59Z')),
      '2026-11-25 14:03 -03:00',
    )
  })

  it('keeps a field that a spreadsheet would run as a formula as text, and quotes what must be', () => {
    assert.equal(csvField('Maria'), 'Maria')
    assert.equal(csvField('=HYPERLINK("x")'), `"'=HYPERLINK(""x"")"`)
    assert.equal(csvField('a;b'), '"a;b"')
    assert.equal(csvField('-1'), "'-1")
  })
})

describe('the CSV export, in pieces', () => {
  it('joins lines into pieces no longer than asked, splitting no line and losing none', () => {
    const lines = Array.from(
      { length: 1000 },
      (_, index) => `${'x'.repeat(index % 300)};${index}\r\n`,
    )
    const pieces = [...inPieces(lines, 64 * 1024)]
    assert.equal(pieces.join(''), lines.join(''))
    assert.ok(pieces.length > 1)
    for (const piece of pieces) {
      assert.ok(piece.length <= 64 * 1024, `${piece.length}`)
      assert.ok(piece.endsWith('\r\n'))
    }
  })

  it('gives a line longer than a piece a piece of its own', () => {
    assert.deepEqual(
      [...inPieces(['a\r\n', 'b'.repeat(10) + '\r\n', 'c\r\n'], 8)],
      ['a\r\n', 'b'.repeat(10) + '\r\n', 'c\r\n'],
    )
    assert.deepEqual([...inPieces([], 8)], [])
  })
})

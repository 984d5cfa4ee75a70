import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { describe, it } from 'node:test'
import { withoutPropTypes } from './drop-prop-types'

const require = createRequire(import.meta.url)

describe('withoutPropTypes', () => {
  it('takes out a propTypes assignment and nothing else', () => {
    const source = [
      "import PropTypes from 'prop-types';",
      'const CButton = forwardRef(() => null);',
      'CButton.propTypes = {',
      '    active: PropTypes.bool,',
      "    size: PropTypes.oneOf(['sm', 'lg']),",
      '};',
      "CButton.displayName = 'CButton';",
      '',
    ].join('\n')
    assert.equal(
      withoutPropTypes(source),
      [
        "import PropTypes from 'prop-types';",
        'const CButton = forwardRef(() => null);',
        "CButton.displayName = 'CButton';",
        '',
      ].join('\n'),
    )
  })

  for (const component of ['button/CButton.js', 'form/CFormInput.js']) {
    it(`matches the installed CoreUI: no propTypes left in ${component}`, () => {
      const file = require.resolve(`@coreui/react/dist/esm/components/${component}`)
      const source = readFileSync(file, 'utf8')
      assert.match(source, /\.propTypes = /)
      assert.doesNotMatch(withoutPropTypes(source), /propTypes/)
    })
  }
})

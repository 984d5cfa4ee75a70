import { CButton, CCard, CCardBody, CFormInput, CFormLabel } from '@coreui/react'
import { useId, useState } from 'react'
import type { ScimTokenCreated, ScimTokenItem } from '../../../../common/api/scim-tokens'
import { SCIM_TOKEN_NAME_MAX_LENGTH } from '../../../../common/api/scim-tokens'
import { useLoad } from '../../api/use-load'
import { useRefreshOnFocus } from '../../api/use-refresh-on-focus'
import { FormField } from '../../forms/form-field'
import { SubmitButton } from '../../forms/submit-button'
import { useFormSubmit } from '../../forms/use-form-submit'
import { DeleteDialog, type DeleteWords } from '../../ui/delete-dialog'
import { formatDateTime } from '../../ui/format-date'
import { LoadingLine, StaleNotice } from '../../ui/load-notices'
import { Notice } from '../../ui/notice'
import { RefreshButton } from '../../ui/refresh-button'
import { useConfirmedAction } from '../../ui/use-confirmed-action'
import { useCopy } from '../../ui/use-copy'
import { createScimToken, listScimTokens, revokeScimToken } from './provisioning-api'
import { provisioningMessages as text } from './provisioning-messages'

/** A token is revoked, not deleted: the deletion's dialog, in this screen's words. */
const REVOKE_WORDS: DeleteWords = {
  deleteTitle: text.revokeTitle,
  deleteBody: text.revokeBody,
  delete: text.revoke,
}

/** The token just made, shown this once with a button that copies it. */
function NewToken({ created, onDone }: { created: ScimTokenCreated; onDone: () => void }) {
  const { outcome, copy } = useCopy()
  const id = useId()
  return (
    <CCard className="mb-3 border-success" role="region" aria-labelledby={`${id}-heading`}>
      <CCardBody>
        <h2 id={`${id}-heading`} className="h5">
          {text.createdHeading(created.name)}
        </h2>
        <p>{text.createdBody}</p>
        <CFormLabel htmlFor={`${id}-token`}>{text.tokenLabel}</CFormLabel>
        <div className="d-flex flex-wrap align-items-center gap-2 mb-2">
          <CFormInput
            id={`${id}-token`}
            readOnly
            value={created.token}
            className="font-monospace"
            style={{ maxWidth: '36rem' }}
            onFocus={(event) => event.currentTarget.select()}
          />
          <CButton color="primary" onClick={() => copy(created.token)}>
            {text.copy}
          </CButton>
          <CButton color="secondary" variant="outline" onClick={onDone}>
            {text.done}
          </CButton>
        </div>
        <span role="status" className="small">
          {outcome === 'copied' ? text.copied : outcome === 'failed' ? text.copyFailed : ''}
        </span>
      </CCardBody>
    </CCard>
  )
}

type CreateField = 'tokenName'
const CREATE_FIELDS: readonly CreateField[] = ['tokenName']
/** The server refuses a name (blank, too long) as invalid_input: said under the field. */
const CREATE_FIELD_OF_ERROR = { invalid_input: 'tokenName' } as const

function CreateForm({ onCreated }: { onCreated: (created: ScimTokenCreated) => void }) {
  // Kept here to be emptied once the token is made.
  const [name, setName] = useState('')
  const form = useFormSubmit({
    fields: CREATE_FIELDS,
    validate: ({ tokenName }) => (tokenName.trim() ? {} : { tokenName: text.nameMissing }),
    fieldOfError: CREATE_FIELD_OF_ERROR,
    submit: async ({ tokenName }) => {
      onCreated(await createScimToken({ name: tokenName.trim() }))
      setName('')
    },
  })
  const field = form.field('tokenName')
  return (
    <form
      noValidate
      onSubmit={form.onSubmit}
      aria-busy={form.sending}
      className="mb-4"
      style={{ maxWidth: '32rem' }}
    >
      <h2 className="h5">{text.createHeading}</h2>
      <Notice text={form.serverError} />
      <FormField
        {...field}
        label={text.nameLabel}
        type="text"
        autoComplete="off"
        hint={text.nameHint}
        onEdit={(value) => {
          field.onEdit(value)
          setName(value)
        }}
        inputProps={{ value: name, maxLength: SCIM_TOKEN_NAME_MAX_LENGTH }}
      />
      <SubmitButton label={text.create} sending={form.sending} />
    </form>
  )
}

function TokenTable({
  tokens,
  onRevoke,
}: {
  tokens: ScimTokenItem[]
  onRevoke: (token: ScimTokenItem) => void
}) {
  if (tokens.length === 0) return <p>{text.empty}</p>
  return (
    <div className="table-responsive">
      <table className="table align-middle" aria-label={text.listLabel}>
        <thead>
          <tr>
            <th scope="col">{text.columns.name}</th>
            <th scope="col">{text.columns.createdAt}</th>
            <th scope="col">{text.columns.createdBy}</th>
            <th scope="col">{text.columns.lastUsedAt}</th>
            <th scope="col">
              <span className="visually-hidden">{text.revoke}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {tokens.map((token) => (
            <tr key={token.id}>
              <th scope="row" style={{ overflowWrap: 'anywhere' }}>
                {token.name}
              </th>
              <td>{formatDateTime(token.createdAt)}</td>
              <td>{token.createdBy}</td>
              <td>{token.lastUsedAt ? formatDateTime(token.lastUsedAt) : text.neverUsed}</td>
              <td className="text-end">
                <CButton
                  size="sm"
                  color="danger"
                  variant="outline"
                  aria-label={text.revokeToken(token.name)}
                  onClick={() => onRevoke(token)}
                >
                  {text.revoke}
                </CButton>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}

/** Provisionamento (provisioning.manage): the SCIM address, the tokens, making and revoking them. */
export default function ProvisioningScreen() {
  const { load, reload, busy } = useLoad(listScimTokens, '', { keepOnFailure: true })
  useRefreshOnFocus(reload)
  const [created, setCreated] = useState<ScimTokenCreated | null>(null)
  const [notice, setNotice] = useState<string | null>(null)
  const revocation = useConfirmedAction<ScimTokenItem>()

  return (
    <>
      <div className="d-flex flex-wrap align-items-center gap-2 mb-1">
        <h1 className="h2 mb-0 me-auto">{text.title}</h1>
        <RefreshButton busy={busy} onClick={reload} />
      </div>
      <p className="text-body-secondary">{text.intro}</p>
      {load.state === 'ready' && (
        // The server's PUBLIC_URL, not this page's address: behind a proxy they may differ.
        <dl className="mb-4">
          <dt>{text.baseUrl}</dt>
          <dd>
            <code>{load.data.baseUrl}</code>
          </dd>
        </dl>
      )}
      {created && <NewToken created={created} onDone={() => setCreated(null)} />}
      <CreateForm
        onCreated={(made) => {
          setNotice(null)
          setCreated(made)
          reload()
        }}
      />
      <h2 className="h5">{text.listHeading}</h2>
      <Notice color="success" text={notice} />
      <StaleNotice load={load} />
      {load.state === 'loading' ? (
        <LoadingLine />
      ) : load.state === 'failed' ? (
        <Notice text={load.message} />
      ) : (
        <TokenTable tokens={load.data.tokens} onRevoke={(token) => revocation.ask(token)} />
      )}
      <DeleteDialog
        removal={revocation}
        words={REVOKE_WORDS}
        remove={revokeScimToken}
        onDeleted={(revoked) => {
          if (created?.id === revoked.id) setCreated(null)
          setNotice(text.revoked(revoked.name))
          reload()
        }}
      />
    </>
  )
}

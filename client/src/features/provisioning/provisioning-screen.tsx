import { CButton, CCard, CCardBody, CFormLabel, CFormTextarea } from '@coreui/react'
import { useEffect, useId, useRef, useState, type RefObject } from 'react'
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
import { PHONE, useMediaQuery } from '../../ui/use-media-query'
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

/**
 * The token just made, shown this once with a button that copies it. It takes the focus when it
 * appears (the form that made it empties, and a keyboard or screen-reader user is taken to what
 * happened). The token is in a read-only text area that wraps: on a phone a one-line field showed
 * a third of it.
 */
function NewToken({ created, onDone }: { created: ScimTokenCreated; onDone: () => void }) {
  const { outcome, copy } = useCopy()
  const id = useId()
  const heading = useRef<HTMLHeadingElement>(null)
  useEffect(() => heading.current?.focus(), [created.id])
  return (
    <CCard className="mb-3 border-success" role="region" aria-labelledby={`${id}-heading`}>
      <CCardBody>
        <h2 id={`${id}-heading`} ref={heading} tabIndex={-1} className="h5">
          {text.createdHeading(created.name)}
        </h2>
        <p>{text.createdBody}</p>
        <CFormLabel htmlFor={`${id}-token`}>{text.tokenLabel}</CFormLabel>
        <CFormTextarea
          id={`${id}-token`}
          readOnly
          rows={2}
          value={created.token}
          className="font-monospace mb-2"
          style={{ maxWidth: '36rem', wordBreak: 'break-all', resize: 'none' }}
          onFocus={(event) => event.currentTarget.select()}
        />
        <div className="d-flex flex-wrap align-items-center gap-2 mb-2">
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

function CreateForm({
  onCreated,
  formRef,
}: {
  onCreated: (created: ScimTokenCreated) => void
  /** The form, for the screen to give its name field the focus back ("Já copiei"). */
  formRef: RefObject<HTMLFormElement>
}) {
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
      ref={formRef}
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

function RevokeButton({
  token,
  onRevoke,
}: {
  token: ScimTokenItem
  onRevoke: (token: ScimTokenItem) => void
}) {
  return (
    <CButton
      size="sm"
      color="danger"
      variant="outline"
      aria-label={text.revokeToken(token.name)}
      onClick={() => onRevoke(token)}
    >
      {text.revoke}
    </CButton>
  )
}

/**
 * The tokens: a table, or on a phone a list of cards (the table's five columns did not fit in
 * 390 px and scrolled sideways, its name and dates cut).
 */
function TokenList({
  tokens,
  onRevoke,
}: {
  tokens: ScimTokenItem[]
  onRevoke: (token: ScimTokenItem) => void
}) {
  const phone = useMediaQuery(PHONE)
  if (tokens.length === 0) return <p>{text.empty}</p>
  const lastUse = (token: ScimTokenItem) =>
    token.lastUsedAt ? formatDateTime(token.lastUsedAt) : text.neverUsed
  if (phone) {
    return (
      <ul className="list-unstyled" aria-label={text.listLabel}>
        {tokens.map((token) => (
          <li key={token.id} className="border rounded p-3 mb-2">
            <h3 className="h6" style={{ overflowWrap: 'anywhere' }}>
              {token.name}
            </h3>
            <dl className="small mb-2">
              <dt>{text.columns.createdAt}</dt>
              <dd>{formatDateTime(token.createdAt)}</dd>
              <dt>{text.columns.createdBy}</dt>
              <dd style={{ overflowWrap: 'anywhere' }}>{token.createdBy}</dd>
              <dt>{text.columns.lastUsedAt}</dt>
              <dd className="mb-0">{lastUse(token)}</dd>
            </dl>
            <RevokeButton token={token} onRevoke={onRevoke} />
          </li>
        ))}
      </ul>
    )
  }
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
              <td>{lastUse(token)}</td>
              <td className="text-end">
                <RevokeButton token={token} onRevoke={onRevoke} />
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
  const createForm = useRef<HTMLFormElement>(null)

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
      {created && (
        <NewToken
          created={created}
          onDone={() => {
            setCreated(null)
            // Back where a next token is made, rather than on the page's body.
            const nameField = createForm.current?.elements.namedItem('tokenName')
            if (nameField instanceof HTMLElement) nameField.focus()
          }}
        />
      )}
      <CreateForm
        formRef={createForm}
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
        <TokenList tokens={load.data.tokens} onRevoke={(token) => revocation.ask(token)} />
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

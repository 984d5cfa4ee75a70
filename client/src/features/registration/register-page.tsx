import { CFormLabel, CFormText } from '@coreui/react'
import { useEffect, useId, useState } from 'react'
import { Link } from 'react-router-dom'
import { paths } from '../../routing/paths'
import type { OpenTeams } from '../../../../common/api/auth'
import { listOpenTeams, requestRegistration } from './registration-api'
import { validateRegister, type RegisterField } from '../../forms/auth-validation'
import { useFormSubmit } from '../../forms/use-form-submit'
import { registerMessages } from './registration-messages'
import { EmailField, NewPasswordFields } from '../../forms/account-fields'
import { FormField } from '../../forms/form-field'
import { PublicCard } from '../../ui/public-card'
import { Notice } from '../../ui/notice'
import { SubmitButton } from '../../forms/submit-button'

const FIELDS: readonly RegisterField[] = ['name', 'email', 'password', 'confirmPassword']
const text = registerMessages.register
/** The server's refusal of a field (a common password) is said under it and goes when it changes. */
const FIELD_OF_KIND = { name: 'name', email: 'email', password: 'password' } as const

export default function RegisterPage() {
  const id = useId()
  /** Sent: with the name of the team it chose (null: none), which the answer's words name. */
  const [received, setReceived] = useState<{ team: string | null } | null>(null)
  const [teams, setTeams] = useState<OpenTeams['teams']>([])
  // Only when the server lists open teams is there a choice; a failure leaves it out. Not
  // useLoad: it would join the chunk every cold load shares, the sign-in page's too.
  useEffect(() => {
    const controller = new AbortController()
    listOpenTeams(controller.signal).then(
      (answer) => setTeams(answer.teams),
      () => undefined,
    )
    return () => controller.abort()
  }, [])
  const [teamId, setTeamId] = useState('')
  const form = useFormSubmit({
    fields: FIELDS,
    validate: validateRegister,
    fieldOfKind: FIELD_OF_KIND,
    submit: async ({ name, email, password }) => {
      await requestRegistration(name.trim(), email, password, teamId || undefined)
      setReceived({ team: teams.find((team) => team.id === teamId)?.name ?? null })
    },
  })

  if (received) {
    return (
      <PublicCard title={text.receivedTitle}>
        <Notice color="success" text={text.received(received.team)} />
        <Link to={paths.login} className="btn btn-primary">
          {text.backToLogin}
        </Link>
      </PublicCard>
    )
  }

  return (
    <PublicCard title={text.title} subtitle={text.subtitle}>
      <form noValidate onSubmit={form.onSubmit} aria-busy={form.sending}>
        <Notice text={form.serverError} />
        <FormField {...form.field('name')} label={text.name} type="text" autoComplete="name" />
        <EmailField {...form.field('email')} label={text.email} />
        {teams.length > 0 && (
          <div className="mb-3">
            <CFormLabel htmlFor={`${id}-team`}>{text.team}</CFormLabel>
            <select
              id={`${id}-team`}
              name="teamId"
              className="form-select"
              value={teamId}
              aria-describedby={`${id}-team-hint`}
              onChange={(event) => setTeamId(event.target.value)}
            >
              <option value="">{text.noTeam}</option>
              {teams.map((team) => (
                <option key={team.id} value={team.id}>
                  {team.name}
                </option>
              ))}
            </select>
            <CFormText id={`${id}-team-hint`}>{text.teamHint}</CFormText>
          </div>
        )}
        <NewPasswordFields
          password={form.field('password')}
          confirmation={form.field('confirmPassword')}
          passwordLabel={text.password}
          confirmationLabel={text.confirmPassword}
        />
        <SubmitButton label={text.submit} sending={form.sending} />
      </form>
      <hr />
      <p className="mb-0">
        {text.haveAccount} <Link to={paths.login}>{text.backToLogin}</Link>
      </p>
    </PublicCard>
  )
}

import { Type, type Static } from 'typebox'

/**
 * The signed-in person's security notices (issue 30), under /api/me, Bearer:
 *
 * | call                          | answers                        |
 * | ----------------------------- | ------------------------------ |
 * | GET /notices                  | 200 NoticePreferences          |
 * | PATCH /notices {newBrowser}   | 200 NoticePreferences; 400     |
 *
 * Every other notice (second factor, recovery codes, passkeys, a lock, a role or a provider
 * link changed, the e-mail changed) always goes: only the new-browser one may be turned off.
 */

const closed = { additionalProperties: false } as const

export const NoticePreferencesSchema = Type.Object(
  {
    newBrowser: Type.Boolean({
      description: 'mail the person when a browser new to the account signs in',
    }),
  },
  closed,
)
export type NoticePreferences = Static<typeof NoticePreferencesSchema>

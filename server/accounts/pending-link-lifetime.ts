/**
 * How long a provider's identity waits for the account's password (docs/single-sign-on.md,
 * "Linking by password"): the pending link and its cookie live this long
 * (features/sign-in-with-provider/pending-links.ts), and Início does not count a `link_required`
 * refusal that the person finished within it as a failed attempt (audit-log/my-activity.ts).
 */
export const PENDING_LINK_TTL_SECONDS = 10 * 60

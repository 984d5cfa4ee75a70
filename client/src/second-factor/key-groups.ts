/**
 * The authenticator key as a person types it from the screen: groups of four characters, as
 * the apps show them, and never a group of one (a last lone character joins the group before
 * it), so a narrow screen, which wraps only between groups, never leaves one letter on a line.
 */
export function keyGroups(secret: string): string[] {
  const groups = secret.replace(/\s+/g, '').match(/.{1,4}/g) ?? []
  const last = groups.at(-1)
  if (groups.length > 1 && last?.length === 1) {
    groups.pop()
    groups[groups.length - 1] += last
  }
  return groups
}

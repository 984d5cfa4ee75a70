import { adminMessages } from '../words/admin-messages'
import { ConfirmDialog } from './confirm-dialog'
import type { useConfirmedAction } from './use-confirmed-action'

/**
 * The words of a deletion's question, the screen's own (roles-messages.ts, teams-messages.ts;
 * Provisionamento's "Revogar" a token: provisioning-messages.ts).
 */
export interface DeleteWords {
  deleteTitle: (name: string) => string
  deleteBody: string
  delete: string
}

/**
 * "Excluir …?" for something with a name (a role, a team, a provisioning token), asked through useConfirmedAction: the
 * dialog stays open, busy, until the server answers; a refusal shows in it; once deleted, the
 * screen says so its own way (a notice, another screen).
 */
export function DeleteDialog<Item extends { id: string; name: string }>({
  removal,
  words,
  remove,
  onDeleted,
}: {
  removal: ReturnType<typeof useConfirmedAction<Item>>
  words: DeleteWords
  remove: (id: string) => Promise<unknown>
  onDeleted: (doomed: Item) => void
}) {
  if (!removal.asking) return null
  return (
    <ConfirmDialog
      title={words.deleteTitle(removal.asking.name)}
      body={words.deleteBody}
      confirmLabel={words.delete}
      cancelLabel={adminMessages.cancel}
      danger
      busy={removal.busy}
      error={removal.error}
      onConfirm={() =>
        void removal.confirm(async (doomed) => {
          await remove(doomed.id)
          onDeleted(doomed)
        })
      }
      onCancel={removal.cancel}
    />
  )
}

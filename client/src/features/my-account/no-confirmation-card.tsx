import { AccountCard } from '../../ui/account-card'

/**
 * In place of "Trocar e-mail" and "Excluir minha conta" for someone who has neither a password
 * of their own nor the authenticator app (an account a sign-in provider made, or any but the
 * first admin's with PASSWORD_SIGN_IN=off; a passkey does not confirm these): what they can do
 * instead, which docs/personal-data.md describes.
 */
const text = {
  email: {
    title: 'Trocar e-mail',
    intro:
      'Para trocar o e-mail aqui, confirme a troca com um código do aplicativo autenticador: sua conta não tem senha própria. Ative o aplicativo em “Verificação em duas etapas”, ou peça a troca a quem administra o Painel.',
  },
  deletion: {
    title: 'Excluir minha conta',
    intro:
      'Para pedir a exclusão aqui, confirme o pedido com um código do aplicativo autenticador: sua conta não tem senha própria. Ative o aplicativo em “Verificação em duas etapas”, ou peça a exclusão a quem administra o Painel, que pode anonimizar a sua conta.',
  },
}

export function NoConfirmationCard({ kind }: { kind: 'email' | 'deletion' }) {
  return <AccountCard title={text[kind].title} intro={text[kind].intro} />
}

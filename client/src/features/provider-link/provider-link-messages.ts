/** The words of the page an admin's link opens (pt-BR, addressing the person). */
export const providerLinkMessages = {
  title: 'Vincular provedor de identidade',
  intro: (label: string, name: string, email: string) =>
    // The label always after "provedor" (common/provider-labels.ts): right for any label.
    `Este link vincula a sua conta do provedor de identidade «${label}» à conta de ${name} (${email}) no Painel. Ao continuar, você entra no provedor «${label}» com a sua conta e volta ao Painel já com acesso. Depois disso, é só usar o botão “Entrar com ${label}” na página de entrada.`,
  button: (label: string) => `Entrar com ${label} e vincular`,
  notYou:
    'Se esta conta não é sua ou você não esperava este link, não continue: feche esta página e avise quem administra o Painel.',
  missing: 'Este link está incompleto. Abra o link do e-mail de novo, inteiro.',
  goToLogin: 'Ir para a página de entrada',
} as const

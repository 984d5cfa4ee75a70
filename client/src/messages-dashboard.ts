/**
 * The words of the dashboard, in Brazilian Portuguese: apart from messages.ts so that they are in
 * those chunks only, not in the shared one every cold load (the sign-in page's too) downloads.
 */
export const dashboardMessages = {
  dashboard: {
    title: 'Início',
    greeting: (name: string) => `Olá, ${name}!`,
    greetingAnonymous: 'Olá!',
  },
} as const

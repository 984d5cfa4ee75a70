import { startOidcTestProvider } from '../../server/test/oidc-test-provider'
import { e2e } from './test-env'

/**
 * The OpenID provider of the Playwright run (playwright.config.ts starts it as a web server
 * before the panel, which has it as its `corp` provider): the real oidc-provider on loopback
 * (server/test/oidc-test-provider.ts), its own login page ("E-mail", "Senha", "Entrar",
 * "Cancelar"), and any e-mail signs in, verified, so each journey uses an e-mail of its own.
 */
const provider = await startOidcTestProvider({
  port: e2e.oidc.port,
  clients: [
    {
      clientId: e2e.oidc.clientId,
      clientSecret: e2e.oidc.clientSecret,
      redirectUris: [
        `${e2e.baseURL}/api/auth/oidc/corp/callback`,
        `http://localhost:${e2e.oidc.ownServerPort}/api/auth/oidc/corp/callback`,
      ],
    },
  ],
  anyEmail: true,
})
console.log(`test OpenID provider at ${provider.issuer}`)
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => void provider.stop().then(() => process.exit(0)))
}

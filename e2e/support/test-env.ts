import { mkdtempSync } from 'node:fs'
import { randomBytes } from 'node:crypto'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePortSync } from '../../scripts/free-port'

/**
 * What one Playwright run shares between its config, its global setup and its workers: chosen
 * once in the main process and handed down through the environment (workers inherit it).
 */
process.env.PAINEL_E2E_PORT ??= String(freePortSync())
process.env.PAINEL_E2E_SMTP_PORT ??= String(freePortSync())
process.env.PAINEL_E2E_OIDC_PORT ??= String(freePortSync())
process.env.PAINEL_E2E_SSO_OWN_PORT ??= String(freePortSync())
process.env.PAINEL_E2E_DATA_DIR ??= mkdtempSync(join(tmpdir(), 'painel-e2e-data-'))
process.env.PAINEL_E2E_MAIL_DIR ??= mkdtempSync(join(tmpdir(), 'painel-e2e-mail-'))
process.env.PAINEL_E2E_ADMIN_PASSWORD ??= randomBytes(12).toString('base64url')

export const e2e = {
  port: Number(process.env.PAINEL_E2E_PORT),
  // A host name, not 127.0.0.1: browsers refuse passkeys on an IP address, and the panel's
  // PUBLIC_URL (the passkeys' relying party) is this. The server still listens on 127.0.0.1 only
  // (localhost is 127.0.0.1 in /etc/hosts; Node tries both families where it is also ::1).
  baseURL: `http://localhost:${process.env.PAINEL_E2E_PORT}`,
  smtpPort: Number(process.env.PAINEL_E2E_SMTP_PORT),
  dataDir: process.env.PAINEL_E2E_DATA_DIR,
  mailDir: process.env.PAINEL_E2E_MAIL_DIR,
  /** The run's OpenID provider (oidc-provider-server.ts), the panel's `corp`. */
  oidc: {
    port: Number(process.env.PAINEL_E2E_OIDC_PORT),
    issuer: `http://127.0.0.1:${process.env.PAINEL_E2E_OIDC_PORT}`,
    clientId: 'painel-e2e',
    clientSecret: 'segredo-do-painel-e2e',
    /** AUTH_CORP_LABEL: the button says "Entrar com Provedor de Teste". */
    label: 'Provedor de Teste',
    /**
     * The port of the one server of a suite's own that signs in at this provider
     * (password-sign-in-off.spec.ts): the provider knows its callback too.
     */
    ownServerPort: Number(process.env.PAINEL_E2E_SSO_OWN_PORT),
  },
  /**
   * QUEUE_WAIT_MS of every server the suites start (playwright.config.ts, own-server.ts): the
   * suites' two workers are not a load to shed. On a busy CI machine a request could wait past the
   * default 500 ms for its turn and be refused (503), failing a journey that tests something
   * else. Admission itself is tested on the server (server/http/admission.test.ts) and measured
   * by the bench (--only overload).
   */
  queueWaitMs: 15_000,
  admin: {
    name: 'Administrador',
    email: 'admin@painel.test',
    password: process.env.PAINEL_E2E_ADMIN_PASSWORD,
  },
}

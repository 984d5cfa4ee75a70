/** The pt-BR texts of signing in with a passkey, loaded with that code only (login budget). */
export const passkeyMessages = {
  failed: 'A chave de acesso não foi usada. Tente de novo ou use outro método.',
  unsupported: 'Este navegador não permite chaves de acesso.',
} as const

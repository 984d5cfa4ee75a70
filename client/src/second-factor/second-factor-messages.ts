/**
 * The pt-BR texts of the second factors' cards (authenticator app, recovery codes, passkeys),
 * which Minha conta and the setup MFA_REQUIRED asks for show. Apart from words/messages.ts,
 * which is in the login page's bundle (it has a budget).
 */
export const securityMessages = {
  cancel: 'Cancelar',
  retry: 'Tentar de novo',
  loading: 'Carregando…',
  totp: {
    title: 'Verificação em duas etapas',
    // Not "além da senha": someone who signs in at a provider has no password here.
    intro:
      'Ao entrar, você digita também um código do aplicativo autenticador do seu celular (Google Authenticator, Microsoft Authenticator, 2FAS, Aegis…).',
    on: 'Ativada com aplicativo autenticador.',
    off: 'Desativada.',
    codesLeft: (count: number) =>
      count === 1 ? 'Resta 1 código de recuperação.' : `Restam ${count} códigos de recuperação.`,
    turnOn: 'Ativar aplicativo autenticador',
    scan: 'Leia o código QR com o aplicativo autenticador, ou digite a chave abaixo.',
    qrLabel: 'Código QR para o aplicativo autenticador',
    openInApp: 'Abrir no aplicativo autenticador',
    openInAppIntro: 'Está no celular que tem o aplicativo? Toque para adicionar a conta nele:',
    secret: 'Chave para digitar no aplicativo',
    copyKey: 'Copiar chave',
    keyCopied: 'Chave copiada.',
    copyFailed: 'Não foi possível copiar. Selecione a chave e copie.',
    code: 'Código de 6 dígitos do aplicativo',
    confirm: 'Confirmar e ativar',
    codeInvalid: 'Digite os 6 dígitos que o aplicativo mostra agora.',
    codesTitle: 'Códigos de recuperação',
    codesIntro:
      'Guarde estes códigos em um lugar seguro. Cada um serve uma vez para entrar se você perder o celular. Eles não serão mostrados de novo.',
    download: 'Baixar como .txt',
    fileName: 'painel-codigos-de-recuperacao.txt',
    fileHeader: (email: string) =>
      `Códigos de recuperação do Painel (${email}). Cada código serve uma vez.`,
    saved: 'Já guardei os códigos',
    password: 'Senha atual',
    turnOff: 'Desativar',
    turnOffTitle: 'Desativar a verificação em duas etapas',
    turnedOff: 'Verificação em duas etapas desativada.',
    regenerate: 'Gerar novos códigos de recuperação',
    regenerateIntro: 'Os códigos antigos deixam de valer.',
    turnedOn: 'Verificação em duas etapas ativada.',
  },
  passkeys: {
    title: 'Chaves de acesso',
    intro:
      'Entre sem senha com a biometria ou o PIN do aparelho. Uma chave de acesso também serve como segunda etapa.',
    none: 'Nenhuma chave de acesso cadastrada.',
    name: 'Nome da chave',
    namePlaceholder: 'Ex.: Notebook do trabalho',
    add: 'Adicionar chave de acesso',
    added: 'Chave de acesso adicionada.',
    created: 'Criada em',
    lastUsed: 'Último uso',
    never: 'nunca usada',
    rename: 'Renomear',
    renameLabel: (name: string) => `Renomear a chave ${name}`,
    save: 'Salvar nome',
    renamed: 'Nome da chave salvo.',
    remove: 'Remover',
    removeLabel: (name: string) => `Remover a chave ${name}`,
    removed: 'Chave de acesso removida.',
    removeTitle: (name: string) => `Remover a chave ${name}?`,
    removeBody: 'Ela deixa de servir para entrar nesta conta.',
    // GET /api/me/mfa says whether another factor is left; MFA_REQUIRED is the server's to know.
    removeLastBody:
      'Sem chave de acesso nem aplicativo autenticador, a conta deixa de pedir uma segunda etapa ao entrar. Se a verificação em duas etapas for obrigatória para você, será preciso configurar uma de novo para continuar.',
    nameRequired: 'Dê um nome à chave, para reconhecê-la depois.',
    failed: 'A chave de acesso não foi criada. Tente de novo.',
    unsupported: 'Este navegador não permite chaves de acesso.',
  },
} as const

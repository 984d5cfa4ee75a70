import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto'
import type {
  AuthenticationCredential,
  CreationOptions,
  RegistrationCredential,
  RequestOptions,
} from '../../common/api/webauthn'

/**
 * A passkey authenticator in software, for server tests: it answers the server's WebAuthn
 * options the way a browser and a platform authenticator do (an ES256 key per credential,
 * 'none' attestation, authenticatorData with its flags and signature counter, clientDataJSON),
 * so the server's real verifier (@simplewebauthn/server) checks real signatures. Options let a
 * test answer wrongly on purpose: another origin, no user verification, a stale counter (a
 * cloned authenticator), another challenge.
 */

const b64url = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url')
const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest()

/** The CBOR subset WebAuthn needs: integers, byte and text strings, maps (RFC 8949). */
type Cbor = number | string | Uint8Array | Map<Cbor, Cbor>

function cborHead(major: number, length: number): Buffer {
  if (length < 24) return Buffer.from([(major << 5) | length])
  if (length < 0x100) return Buffer.from([(major << 5) | 24, length])
  if (length < 0x10000) {
    const head = Buffer.alloc(3)
    head[0] = (major << 5) | 25
    head.writeUInt16BE(length, 1)
    return head
  }
  const head = Buffer.alloc(5)
  head[0] = (major << 5) | 26
  head.writeUInt32BE(length, 1)
  return head
}

export function cbor(value: Cbor): Buffer {
  if (typeof value === 'number') {
    return value >= 0 ? cborHead(0, value) : cborHead(1, -1 - value)
  }
  if (typeof value === 'string') {
    const text = Buffer.from(value, 'utf8')
    return Buffer.concat([cborHead(3, text.length), text])
  }
  if (value instanceof Uint8Array) return Buffer.concat([cborHead(2, value.length), value])
  const parts = [cborHead(5, value.size)]
  for (const [key, item] of value) parts.push(cbor(key), cbor(item))
  return Buffer.concat(parts)
}

const FLAG_USER_PRESENT = 0x01
const FLAG_USER_VERIFIED = 0x04
const FLAG_ATTESTED_DATA = 0x40

interface Credential {
  id: Buffer
  key: KeyObject
  publicKeyCose: Buffer
  rpId: string
  userHandle: Buffer
  counter: number
}

export interface CeremonyTweaks {
  /** The origin the "browser" reports (default: the authenticator's). */
  origin?: string
  /** The RP ID the authenticator signs for (default: the options', else the authenticator's). */
  rpId?: string
  /** Sign another challenge than the options' one. */
  challenge?: string
  /** The device did not verify the person (no PIN, no biometrics). */
  userVerified?: boolean
  /** clientDataJSON's type (default webauthn.create / webauthn.get). */
  type?: string
}

export interface RegistrationTweaks extends CeremonyTweaks {
  /** The new credential's id (default: 16 random bytes). */
  credentialId?: Buffer
}

export interface AssertionTweaks extends CeremonyTweaks {
  /** Which credential answers (default: the first allowed, or the first for the RP). */
  credentialId?: string
  /** The signature counter to report, instead of one more than the last (a clone's is stale). */
  counter?: number
  /** Sign with another key than the credential's (a forged answer). */
  wrongKey?: boolean
  /** The user handle to report (default: the one stored at registration). */
  userHandle?: string
}

export class SoftwareAuthenticator {
  readonly credentials: Credential[] = []

  /** `origin`: the page's origin, e.g. PUBLIC_URL. */
  constructor(private readonly origin: string) {}

  private get defaultRpId() {
    return new URL(this.origin).hostname
  }

  private clientData(type: string, challenge: string, tweaks: CeremonyTweaks): Buffer {
    return Buffer.from(
      JSON.stringify({
        type: tweaks.type ?? type,
        challenge: tweaks.challenge ?? challenge,
        origin: tweaks.origin ?? this.origin,
        crossOrigin: false,
      }),
    )
  }

  private flags(tweaks: CeremonyTweaks): number {
    return FLAG_USER_PRESENT | (tweaks.userVerified === false ? 0 : FLAG_USER_VERIFIED)
  }

  /** navigator.credentials.create(): a new ES256 credential for these options. */
  register(options: CreationOptions, tweaks: RegistrationTweaks = {}): RegistrationCredential {
    const rpId = tweaks.rpId ?? options.rp.id ?? this.defaultRpId
    const excluded = new Set((options.excludeCredentials ?? []).map((item) => item.id))
    if (this.credentials.some((item) => item.rpId === rpId && excluded.has(b64url(item.id)))) {
      throw new Error('InvalidStateError: this authenticator holds an excluded credential')
    }
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' })
    const jwk = publicKey.export({ format: 'jwk' })
    const publicKeyCose = cbor(
      new Map<Cbor, Cbor>([
        [1, 2], // kty: EC2
        [3, -7], // alg: ES256
        [-1, 1], // crv: P-256
        [-2, Buffer.from(jwk.x!, 'base64url')],
        [-3, Buffer.from(jwk.y!, 'base64url')],
      ]),
    )
    const credential: Credential = {
      id: tweaks.credentialId ?? randomBytes(16),
      key: privateKey,
      publicKeyCose,
      rpId,
      userHandle: Buffer.from(options.user.id, 'base64url'),
      counter: 0,
    }
    const idLength = Buffer.alloc(2)
    idLength.writeUInt16BE(credential.id.length)
    const authData = Buffer.concat([
      sha256(rpId),
      Buffer.from([this.flags(tweaks) | FLAG_ATTESTED_DATA]),
      Buffer.alloc(4), // signature counter 0
      Buffer.alloc(16), // AAGUID: none
      idLength,
      credential.id,
      publicKeyCose,
    ])
    const attestationObject = cbor(
      new Map<Cbor, Cbor>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', authData],
      ]),
    )
    this.credentials.push(credential)
    const id = b64url(credential.id)
    return {
      id,
      rawId: id,
      type: 'public-key',
      response: {
        clientDataJSON: b64url(this.clientData('webauthn.create', options.challenge, tweaks)),
        attestationObject: b64url(attestationObject),
        transports: ['internal'],
      },
      authenticatorAttachment: 'platform',
      clientExtensionResults: {},
    }
  }

  /** navigator.credentials.get(): a signature over the options' challenge. */
  authenticate(options: RequestOptions, tweaks: AssertionTweaks = {}): AuthenticationCredential {
    const ownRpId = options.rpId ?? this.defaultRpId
    const rpId = tweaks.rpId ?? ownRpId
    const allowed = new Set((options.allowCredentials ?? []).map((item) => item.id))
    const credential = this.credentials.find((item) =>
      tweaks.credentialId !== undefined
        ? b64url(item.id) === tweaks.credentialId
        : item.rpId === ownRpId && (allowed.size === 0 || allowed.has(b64url(item.id))),
    )
    if (!credential) throw new Error('NotAllowedError: no credential for these options')
    const counter = tweaks.counter ?? credential.counter + 1
    credential.counter = Math.max(credential.counter, counter)
    const counterBytes = Buffer.alloc(4)
    counterBytes.writeUInt32BE(counter)
    const authData = Buffer.concat([sha256(rpId), Buffer.from([this.flags(tweaks)]), counterBytes])
    const clientDataJSON = this.clientData('webauthn.get', options.challenge, tweaks)
    const key = tweaks.wrongKey
      ? generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey
      : credential.key
    const signature = sign('sha256', Buffer.concat([authData, sha256(clientDataJSON)]), key)
    const id = b64url(credential.id)
    return {
      id,
      rawId: id,
      type: 'public-key',
      response: {
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
        userHandle: tweaks.userHandle ?? b64url(credential.userHandle),
      },
      authenticatorAttachment: 'platform',
      clientExtensionResults: {},
    }
  }

  /** A copy of this authenticator's keys with their counters as they are now (a clone). */
  clone(): SoftwareAuthenticator {
    const copy = new SoftwareAuthenticator(this.origin)
    copy.credentials.push(...this.credentials.map((item) => ({ ...item })))
    return copy
  }
}

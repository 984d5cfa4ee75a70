import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import SerializerSelector from '@fastify/fast-json-stringify-compiler'
import { Type } from 'typebox'
import { AuditPageSchema } from '../../common/api/audit'
import { SignInAnswerSchema } from '../../common/api/auth'
import { StaffListSchema } from '../../common/api/staff'
import { serializerSchema } from './serializer-schemas'

type Serialize = (document: unknown) => string
const selector = SerializerSelector() as unknown as (
  externalSchemas: unknown,
  options: unknown,
) => (route: object) => Serialize
const serializerOf = (schema: unknown) =>
  selector({}, {})({ schema, method: 'GET', url: '/', httpStatus: '200' })

describe('serializerSchema', () => {
  it('gives "a value or null" as the two types', () => {
    const nullableDate = Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
      description: 'quando',
    })
    assert.deepEqual(serializerSchema(nullableDate), {
      description: 'quando',
      type: ['string', 'null'],
      format: 'date-time',
    })
    const person = Type.Object({ id: Type.String() })
    assert.deepEqual(serializerSchema(Type.Union([person, Type.Null()])), {
      ...JSON.parse(JSON.stringify(person)),
      type: ['object', 'null'],
    })
  })

  it('gives a union of words as an enum, with null when the union has it', () => {
    const words = Type.Union([Type.Literal('ativo'), Type.Literal('inativo')])
    assert.deepEqual(serializerSchema(words), { type: 'string', enum: ['ativo', 'inativo'] })
    assert.deepEqual(serializerSchema(Type.Union([words, Type.Null()])), {
      type: ['string', 'null'],
      enum: ['ativo', 'inativo', null],
    })
  })

  it('gives bare types as a list of types, at any depth', () => {
    const details = Type.Record(
      Type.String(),
      Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()]),
    )
    const rewritten = JSON.stringify(serializerSchema(Type.Object({ details })))
    assert.match(rewritten, /"type":\["string","number","boolean","null"\]/)
    assert.doesNotMatch(rewritten, /anyOf/)
  })

  it('gives a union of objects as one object with all their properties', () => {
    const signedIn = Type.Object({ token: Type.String(), user: Type.Object({ id: Type.String() }) })
    const asked = Type.Object({
      challenge: Type.String(),
      user: Type.Object({ id: Type.String() }),
    })
    assert.deepEqual(serializerSchema(Type.Union([signedIn, asked], { description: 'resposta' })), {
      description: 'resposta',
      type: 'object',
      properties: {
        token: { type: 'string' },
        user: { type: 'object', required: ['id'], properties: { id: { type: 'string' } } },
        challenge: { type: 'string' },
      },
      required: ['user'],
    })
  })

  it("writes the sign-in's two answers as its schema does, with no validator to choose between them", () => {
    const rewritten = serializerSchema(SignInAnswerSchema)
    assert.doesNotMatch(JSON.stringify(rewritten), /anyOf/)
    const answers = [
      {
        token: 'abc',
        user: {
          id: '8d9c5d2e-2a52-4f0e-9c9b-3f1d2f9b6a10',
          name: 'Conceição Araújo',
          email: 'conceicao@empresa.com.br',
          role: 'staff',
          status: 'active',
          createdAt: '2026-11-30T10:00:00.000Z',
        },
      },
      { mfa: { challenge: 'xyz', methods: ['totp', 'passkey'] } },
    ]
    const asWritten = serializerOf(SignInAnswerSchema)
    const plain = serializerOf(rewritten)
    for (const answer of answers) {
      assert.deepEqual(JSON.parse(plain(answer)), JSON.parse(asWritten(answer)))
      assert.deepEqual(JSON.parse(plain(answer)), answer)
    }
  })

  it('leaves alone the unions whose branches only a validator tells apart', () => {
    const twoShapes = Type.Union([
      Type.Object({ token: Type.String() }),
      Type.Object({ token: Type.Integer(), challenge: Type.String() }),
    ])
    // A branch that writes properties it does not name: one object would drop them.
    const open = Type.Union([
      Type.Object({ token: Type.String() }),
      Type.Object({ challenge: Type.String() }, { additionalProperties: Type.String() }),
    ])
    const sameType = Type.Union([Type.String({ format: 'uuid' }), Type.String({ maxLength: 3 })])
    for (const schema of [twoShapes, open, sameType])
      assert.deepEqual(serializerSchema(schema), JSON.parse(JSON.stringify(schema)))
  })

  it('does not change the schema it is given', () => {
    const before = JSON.stringify(StaffListSchema)
    serializerSchema(StaffListSchema)
    assert.equal(JSON.stringify(StaffListSchema), before)
  })

  it("writes the same answers as the schema it comes from (Equipe's and Auditoria's pages)", () => {
    const person = {
      id: '8d9c5d2e-2a52-4f0e-9c9b-3f1d2f9b6a10',
      name: 'Conceição Araújo',
      email: 'conceicao@empresa.com.br',
      role: 'staff',
      roleId: '00000000-0000-4000-8000-000000000002',
      roleName: 'Equipe',
      status: 'active',
      createdAt: '2026-11-30T10:00:00.000Z',
      locked: false,
      mfa: true,
      outranksYou: false,
    }
    const staffPages = [
      {
        items: [
          {
            ...person,
            teamId: null,
            teamName: null,
            invitationExpiresAt: null,
            lastSignInAt: null,
          },
          {
            ...person,
            status: 'invited',
            teamId: '3f1d2f9b-6a10-4f0e-9c9b-8d9c5d2e2a52',
            teamName: 'Financeiro',
            invitationExpiresAt: '2026-12-07T10:00:00.000Z',
            lastSignInAt: '2026-11-29T09:30:00.000Z',
          },
        ],
        total: 2,
        totalExact: true,
        page: 1,
        pageSize: 25,
        next: null,
        previous: 'WyJkZWZhdWx0Il0',
        openDeletionRequests: 0,
      },
    ]
    const auditPages = [
      {
        events: [
          {
            id: 'e1',
            at: '2026-11-30T10:00:00.000Z',
            type: 'sign_in',
            actor: { id: person.id, name: person.name, email: person.email },
            account: null,
            ip: '203.0.113.9',
            userAgent: null,
            browser: 'Safari no iPhone',
            details: { method: 'password', attempts: 2, remembered: true, reason: null },
          },
        ],
        next: null,
      },
    ]
    for (const [schema, documents] of [
      [StaffListSchema, staffPages],
      [AuditPageSchema, auditPages],
    ] as const) {
      const original = serializerOf(schema)
      const rewritten = serializerOf(serializerSchema(schema))
      for (const document of documents) {
        let expected: string
        try {
          expected = original(document)
        } catch (error) {
          throw new Error(`the sample does not fit the schema: ${String(error)}`, { cause: error })
        }
        assert.equal(rewritten(document), expected)
      }
    }
  })
})

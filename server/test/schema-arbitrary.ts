import fc from 'fast-check'

/** A JSON Schema as found in an OpenAPI 3.1 document (the keywords read here). */
export interface JsonSchema {
  $ref?: string
  type?: string | string[]
  const?: unknown
  enum?: unknown[]
  anyOf?: JsonSchema[]
  oneOf?: JsonSchema[]
  allOf?: JsonSchema[]
  format?: string
  pattern?: string
  minLength?: number
  maxLength?: number
  minimum?: number
  maximum?: number
  items?: JsonSchema
  minItems?: number
  maxItems?: number
  properties?: Record<string, JsonSchema>
  required?: string[]
}

/** Long enough to reach any limit the API sets on a string (2 KB passwords, 320-byte e-mails). */
const LONGEST_STRING = 2100

function stringArbitrary(schema: JsonSchema): fc.Arbitrary<string> {
  const minLength = schema.minLength ?? 0
  const maxLength = Math.min(schema.maxLength ?? 64, LONGEST_STRING)
  switch (schema.format) {
    case 'email':
      return fc.emailAddress()
    case 'uuid':
      return fc.uuid()
    case 'date-time':
      return fc
        .date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
        .map((date) => date.toISOString())
  }
  if (schema.pattern !== undefined) {
    return fc
      .stringMatching(new RegExp(schema.pattern))
      .filter((value) => value.length >= minLength && value.length <= maxLength)
  }
  const sized = { minLength, maxLength }
  return fc.oneof(
    { weight: 3, arbitrary: fc.string(sized) },
    { weight: 1, arbitrary: fc.string({ ...sized, unit: 'grapheme' }) },
    // At the bounds, where off-by-one mistakes live.
    { weight: 1, arbitrary: fc.constantFrom('x'.repeat(minLength), 'y'.repeat(maxLength)) },
  )
}

/**
 * Values a schema accepts (or nearly: a pattern or format the generator cannot honour), as
 * fast-check arbitraries, so that requests reach the handlers and not only the validator.
 * `resolve` follows `$ref`s into the document.
 */
export function arbitraryFor(
  schema: JsonSchema,
  resolve: (ref: string) => JsonSchema,
): fc.Arbitrary<unknown> {
  if (schema.$ref !== undefined) return arbitraryFor(resolve(schema.$ref), resolve)
  if ('const' in schema) return fc.constant(schema.const)
  if (schema.enum) return fc.constantFrom(...schema.enum)
  const alternatives = schema.anyOf ?? schema.oneOf
  if (alternatives) return fc.oneof(...alternatives.map((part) => arbitraryFor(part, resolve)))
  if (schema.allOf?.[0]) return arbitraryFor(schema.allOf[0], resolve)
  if (Array.isArray(schema.type)) {
    return fc.oneof(...schema.type.map((type) => arbitraryFor({ ...schema, type }, resolve)))
  }
  switch (schema.type) {
    case 'string':
      return stringArbitrary(schema)
    case 'integer':
      return fc.integer({ min: schema.minimum ?? -1e9, max: schema.maximum ?? 1e9 })
    case 'number':
      return fc.double({
        min: schema.minimum ?? -1e9,
        max: schema.maximum ?? 1e9,
        noNaN: true,
        noDefaultInfinity: true,
      })
    case 'boolean':
      return fc.boolean()
    case 'null':
      return fc.constant(null)
    case 'array':
      return fc.array(schema.items ? arbitraryFor(schema.items, resolve) : fc.jsonValue(), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.min(schema.maxItems ?? 5, 10),
      })
    case 'object': {
      const properties = schema.properties ?? {}
      const model = Object.fromEntries(
        Object.entries(properties).map(([name, part]) => [name, arbitraryFor(part, resolve)]),
      )
      return fc.record(model, { requiredKeys: schema.required ?? [] })
    }
    default:
      return fc.jsonValue()
  }
}

/**
 * JSON text nested far deeper than any schema goes (hundreds to thousands of levels, under the
 * 16 KB body limit): arrays, objects, or both in turn, as the whole body or as the value of one
 * of `fields`. Text, not a value: JSON.stringify itself recurses, and overflows at such depths.
 */
export function deeplyNestedJson(fields: readonly string[]): fc.Arbitrary<string> {
  const shapes = {
    arrays: { open: '[', close: ']', bytes: 2 },
    objects: { open: '{"":', close: '}', bytes: 5 },
    mixed: { open: '[{"":', close: '}]', bytes: 7 },
  }
  return fc
    .record({
      shape: fc.constantFrom(...(Object.keys(shapes) as (keyof typeof shapes)[])),
      // A fraction of what 16 KB holds (less the field's wrapping), the whole of it at most.
      share: fc.double({ min: 0.05, max: 1, noNaN: true }),
      field: fields.length > 0 ? fc.option(fc.constantFrom(...fields)) : fc.constant(null),
    })
    .map(({ shape, share, field }) => {
      const { open, close, bytes } = shapes[shape]
      const repeats = Math.max(1, Math.floor((share * (15 * 1024)) / bytes))
      const deep = `${open.repeat(repeats)}1${close.repeat(repeats)}`
      return field === null ? deep : `{${JSON.stringify(field)}:${deep}}`
    })
}

/**
 * An answer's schema as fast-json-stringify writes it without a validator: the unions the API's
 * schemas use for "a value or null" and "one of these words" given as the types and enum they
 * amount to.
 *
 * TypeBox writes both as `anyOf` (`Type.Union`), and fast-json-stringify picks an `anyOf`'s
 * branch at every value by validating it with an Ajv of its own, one per answer schema: made,
 * and each branch compiled, at the answer's first write. For Equipe's list that was 8.5 ms to
 * build and 40 ms for the first answer, against 2 and 2.6 ms with the schema given here (the
 * serializer built and called once in a new process, by hand), and a new server held its event
 * loop that long for its first page of Equipe. The API description and the validation of what
 * comes in keep the schemas as written (common/api/).
 *
 * A union of objects (the sign-in's answer: signed in, or a second factor asked for) is given as
 * one object with every branch's properties, none required that a branch lacks, when the
 * branches agree on the properties they share: an answer is written with the properties it has.
 * Its Ajv was made and compiled at a new server's first sign-in: about 27 ms of a CPU profile's
 * samples in that request (scripts/bench/scale-server.ts on the scale bench's data), and the
 * serializer built and called once in a new process took 57–68 ms with it, 4.3–4.6 without (by
 * hand).
 *
 * What changes in what is written: nothing for a value the schema describes but one: a value
 * with the properties of two object branches was written with the first branch's, and is now
 * written with all of them (the API's answers are one branch or the other). A value it does not
 * describe (a word outside the list, a string where a date-time belongs) was refused by the
 * branch check, failing the answer with a 500; it is now written as it is. The answers are
 * checked against their schemas by the contract tests (openapi/contract-fuzz.test.ts).
 */

type Schema = Record<string, unknown>

const PRIMITIVE_TYPES = new Set(['string', 'number', 'integer', 'boolean'])
/** Keywords that make a branch more than a plain value of its type for fast-json-stringify. */
const COMBINING = ['const', 'anyOf', 'oneOf', 'allOf', 'not', 'if', '$ref']

const isObject = (value: unknown): value is Schema =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

const isNull = (branch: Schema) => branch.type === 'null' && Object.keys(branch).length === 1

/** `Type.Literal('ativo')`: one word. */
const isWord = (branch: Schema) =>
  typeof branch.const === 'string' &&
  Object.keys(branch).every((key) => key === 'const' || key === 'type' || key === 'description')

/** A value of one type that fast-json-stringify writes by its type alone (an object by its properties). */
const isPlainValue = (branch: Schema) =>
  typeof branch.type === 'string' &&
  (PRIMITIVE_TYPES.has(branch.type) || branch.type === 'object' || branch.type === 'array') &&
  COMBINING.every((keyword) => !(keyword in branch))

/** `{ type: 'number' }` and nothing else: several of them are told apart by their types. */
const isBareType = (branch: Schema) =>
  typeof branch.type === 'string' &&
  PRIMITIVE_TYPES.has(branch.type) &&
  Object.keys(branch).length === 1

/**
 * An object written by its properties alone: no keyword that would need a validator, and no
 * property written beyond those it names (`additionalProperties` absent or false).
 */
const isPlainObject = (branch: Schema) =>
  branch.type === 'object' &&
  isObject(branch.properties) &&
  (branch.additionalProperties === undefined || branch.additionalProperties === false) &&
  Object.keys(branch).every((key) => OBJECT_KEYWORDS.has(key))
const OBJECT_KEYWORDS = new Set([
  'type',
  'properties',
  'required',
  'additionalProperties',
  'description',
  'title',
])

/**
 * Objects as one with all their properties, required only where every branch requires them; null
 * when two branches give a property different schemas (only a validator would know which applies).
 */
function mergedObjects(values: Schema[]): Schema | null {
  const properties: Schema = {}
  for (const branch of values) {
    for (const [name, schema] of Object.entries(branch.properties as Schema)) {
      if (name in properties && JSON.stringify(properties[name]) !== JSON.stringify(schema))
        return null
      properties[name] = schema
    }
  }
  const requiredOf = (branch: Schema): unknown[] =>
    Array.isArray(branch.required) ? (branch.required as unknown[]) : []
  const required = requiredOf(values[0]!).filter((name) =>
    values.every((branch) => requiredOf(branch).includes(name)),
  )
  return { type: 'object', properties, ...(required.length ? { required } : {}) }
}

/** The union's branches but null as one schema, or null when they are none of the kinds above. */
function asOne(values: Schema[]): Schema | null {
  if (values.length === 0) return null
  if (values.every(isWord)) return { type: 'string', enum: values.map((branch) => branch.const) }
  if (values.length === 1) return isPlainValue(values[0]!) ? values[0]! : null
  if (values.every(isPlainObject)) return mergedObjects(values)
  const types = values.map((branch) => branch.type)
  if (values.every(isBareType) && new Set(types).size === types.length) return { type: types }
  return null
}

/** The union as one schema, or null when it cannot be written without telling its branches apart. */
function plainUnion(union: Schema, branches: Schema[]): Schema | null {
  const values = branches.filter((branch) => !isNull(branch))
  const plain = asOne(values)
  if (plain === null) return null
  const siblings = { ...union }
  delete siblings.anyOf
  if (values.length === branches.length) return { ...siblings, ...plain }
  return {
    ...siblings,
    ...plain,
    type: [plain.type, 'null'].flat(),
    ...(plain.enum ? { enum: [...(plain.enum as unknown[]), null] } : {}),
  }
}

/** A copy of the schema with its plain unions rewritten, at any depth; the schema is not changed. */
export function serializerSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(serializerSchema)
  if (!isObject(schema)) return schema
  const copy: Schema = {}
  for (const [key, value] of Object.entries(schema)) copy[key] = serializerSchema(value)
  if (!Array.isArray(copy.anyOf) || !copy.anyOf.every(isObject)) return copy
  return plainUnion(copy, copy.anyOf) ?? copy
}

import { sql, type Expression, type ExpressionBuilder, type RawBuilder, type SqlBool } from 'kysely'
import { foldCase, type AttributeDefinition, type ResourceKind } from './attribute-schema'
import {
  checkComparison,
  filterTarget,
  valuePathTarget,
  type CheckedComparison,
} from './filter-checks'
import { compareWithConstant } from './filter-evaluator'
import type { Filter } from './filter-syntax'
import { badRequest } from './scim-error'

/**
 * A parsed filter as a WHERE condition, the same on SQLite and PostgreSQL
 * (server/db/portable-sql.ts has the engines' differences), selecting exactly what filter-evaluator.ts
 * matches in memory (the tests run both over the same rows on both engines).
 *
 * The caller says how each filterable attribute is read (SqlAttributes: user-sql-attributes.ts
 * and group-sql-attributes.ts are Painel's); an attribute the schema keeps but the map leaves
 * out cannot be filtered on, and is `invalidFilter`.
 *
 * How the engines are made to agree:
 * - Case (caseExact false): a column that already holds the folded text (`folded`: accounts.email
 *   is canonical lower-case, teams.name_key the name's key) is compared with the folded value,
 *   so its index serves `eq`; any other is folded in SQL, ASCII letters only on both engines
 *   (SQLite's lower() folds nothing else; PostgreSQL's would, so it uses translate()), as
 *   foldCase does in memory.
 * - co/sw/ew: by position (instr/strpos, substr), not LIKE. SQLite's LIKE ignores ASCII case
 *   and PostgreSQL's does not, and `%`, `_` and the escape character in a value would need
 *   escaping; a position has neither problem.
 * - gt/ge/lt/le on text: byte order on both (`collate "C"` on PostgreSQL; SQLite's default).
 * - Timestamps: bound as Date (SQLite keeps the same ISO text it binds: portable-sql.ts).
 * - NULL: every comparison is two-valued (`x is not null and …`), so `not (externalId eq "a")`
 *   includes a person with no externalId, as it does in memory.
 * - ids: a value that is not a UUID matches no id (PostgreSQL would refuse it for a uuid column).
 */

export type Engine = 'sqlite' | 'postgres'

/** How one attribute (or sub-attribute) is read in SQL. */
export type SqlColumn =
  | {
      kind: 'text'
      expression: Expression<string | null>
      /** The column holds `fold(text)`: compare the folded value to it (caseExact false only). */
      folded?: (value: string) => string
    }
  /** A UUID (stored lower-case): compared case aside. */
  | { kind: 'uuid'; expression: Expression<string | null> }
  | { kind: 'timestamp'; expression: Expression<Date | null> }
  /** A boolean that is a condition on the row (`active`: status = 'active'). */
  | { kind: 'flag'; whenTrue: Expression<SqlBool> }
  /** The same for every row (`emails.type` is always "work"). */
  | { kind: 'constant'; value: string | boolean }

export type SqlAttribute =
  | SqlColumn
  /** A complex attribute whose sub-attributes are columns of the same row (`name`, `meta`). */
  | { kind: 'complex'; subAttributes: Record<string, SqlColumn> }
  /**
   * A multi-valued attribute held in rows of another table (`members`): `exists` wraps a
   * condition on such a row, written with the sub-attributes' expressions.
   */
  | {
      kind: 'relation'
      exists: (condition: Expression<SqlBool>) => Expression<SqlBool>
      subAttributes: Record<string, SqlColumn>
    }

/** Filterable attributes by their schema names (`userName`, `name`, `meta`, `members`). */
export type SqlAttributes = Record<string, SqlAttribute>

type Condition = RawBuilder<SqlBool>

const ALWAYS: Condition = sql<SqlBool>`1 = 1`
const NEVER: Condition = sql<SqlBool>`1 = 0`
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** A callback for `.where(...)` of any query over the tables the attributes' expressions name. */
export type SqlCondition = <DB, TB extends keyof DB>(
  eb: ExpressionBuilder<DB, TB>,
) => Expression<SqlBool>

/**
 * The condition of `filter` on rows of `kind`, for `.where(...)`: checked now, so a filter that
 * is refused throws its ScimError (`invalidFilter`) before any query runs.
 */
export function filterToSql(
  kind: ResourceKind,
  filter: Filter,
  attributes: SqlAttributes,
  engine: Engine,
): SqlCondition {
  const condition = new SqlFilter(kind, attributes, engine).condition(filter)
  return () => condition
}

class SqlFilter {
  constructor(
    private readonly kind: ResourceKind,
    private readonly attributes: SqlAttributes,
    private readonly engine: Engine,
  ) {}

  condition(
    filter: Filter,
    scope?: { parent: AttributeDefinition; columns: Record<string, SqlColumn> },
  ): Condition {
    switch (filter.kind) {
      case 'and':
        return sql<SqlBool>`(${this.condition(filter.left, scope)} and ${this.condition(filter.right, scope)})`
      case 'or':
        return sql<SqlBool>`(${this.condition(filter.left, scope)} or ${this.condition(filter.right, scope)})`
      case 'not':
        return sql<SqlBool>`(not ${this.condition(filter.filter, scope)})`
      case 'valuePath': {
        const parent = valuePathTarget(this.kind, filter.path, scope?.parent)
        const mapped = this.mapped(parent.name, filter.path.text)
        if (mapped.kind === 'relation') {
          const inner = this.condition(filter.filter, { parent, columns: mapped.subAttributes })
          return sql<SqlBool>`${mapped.exists(inner)}`
        }
        if (mapped.kind === 'complex')
          return this.condition(filter.filter, { parent, columns: mapped.subAttributes })
        throw notFilterable(filter.path.text)
      }
      case 'present':
      case 'compare': {
        const target = filterTarget(this.kind, filter.path, scope?.parent)
        const comparison: CheckedComparison =
          filter.kind === 'present'
            ? { type: 'presence', present: true }
            : checkComparison(target, filter.operator, filter.value, filter.path.text)
        if (scope) {
          const column = scope.columns[target.attribute.name]
          if (!column) throw notFilterable(filter.path.text)
          return this.compare(column, comparison)
        }
        const mapped = this.mapped(target.attribute.name, filter.path.text)
        if (target.subAttribute === undefined) {
          if (mapped.kind === 'complex' || mapped.kind === 'relation')
            throw notFilterable(filter.path.text)
          return this.compare(mapped, comparison)
        }
        if (mapped.kind !== 'complex' && mapped.kind !== 'relation')
          throw notFilterable(filter.path.text)
        const column = mapped.subAttributes[target.subAttribute]
        if (!column) throw notFilterable(filter.path.text)
        const condition = this.compare(column, comparison)
        return mapped.kind === 'relation' ? sql<SqlBool>`${mapped.exists(condition)}` : condition
      }
    }
  }

  private mapped(name: string, text: string): SqlAttribute {
    const mapped = this.attributes[name]
    if (!mapped) throw notFilterable(text)
    return mapped
  }

  private compare(column: SqlColumn, comparison: CheckedComparison): Condition {
    switch (column.kind) {
      case 'constant':
        return compareWithConstant(comparison, column.value) ? ALWAYS : NEVER
      case 'flag':
        if (comparison.type === 'presence') return comparison.present ? ALWAYS : NEVER
        if (comparison.type !== 'boolean') throw new Error('unreachable: a flag is a boolean')
        return comparison.value === (comparison.operator === 'eq')
          ? sql<SqlBool>`(${column.whenTrue})`
          : sql<SqlBool>`(not (${column.whenTrue}))`
      case 'timestamp': {
        if (comparison.type === 'presence')
          return this.presence(column.expression, comparison.present, false)
        if (comparison.type !== 'dateTime')
          throw new Error('unreachable: a timestamp is a dateTime')
        return sql<SqlBool>`(${column.expression} is not null and ${column.expression} ${sql.raw(SQL_OPERATORS[comparison.operator])} ${comparison.value})`
      }
      case 'uuid':
        return this.compareUuid(column.expression, comparison)
      case 'text':
        return this.compareText(column, comparison)
    }
  }

  private presence(expression: Expression<unknown>, present: boolean, text: boolean): Condition {
    const has = text
      ? sql<SqlBool>`(${expression} is not null and ${expression} <> '')`
      : sql<SqlBool>`(${expression} is not null)`
    return present ? has : sql<SqlBool>`(not ${has})`
  }

  private compareUuid(
    expression: Expression<string | null>,
    comparison: CheckedComparison,
  ): Condition {
    if (comparison.type === 'presence') return this.presence(expression, comparison.present, false)
    if (comparison.type !== 'string') throw new Error('unreachable: an id is text')
    const value = foldCase(comparison.value)
    if (comparison.operator === 'eq' || comparison.operator === 'ne') {
      // Only a UUID can equal a UUID; PostgreSQL would refuse anything else for the column.
      if (!UUID.test(value))
        return comparison.operator === 'eq' ? NEVER : this.presence(expression, true, false)
      return sql<SqlBool>`(${expression} is not null and ${expression} ${sql.raw(SQL_OPERATORS[comparison.operator])} ${value})`
    }
    return this.textCondition(sql<string>`cast(${expression} as text)`, comparison.operator, value)
  }

  private compareText(
    column: Extract<SqlColumn, { kind: 'text' }>,
    comparison: CheckedComparison,
  ): Condition {
    if (comparison.type === 'presence')
      return this.presence(column.expression, comparison.present, true)
    if (comparison.type !== 'string') throw new Error('unreachable: text compares with text')
    if (comparison.caseExact)
      return this.textCondition(column.expression, comparison.operator, comparison.value)
    if (column.folded)
      return this.textCondition(
        column.expression,
        comparison.operator,
        column.folded(comparison.value),
      )
    return this.textCondition(
      this.foldInSql(column.expression),
      comparison.operator,
      foldCase(comparison.value),
    )
  }

  /** ASCII letters to lower case, nothing else: the same fold as foldCase. */
  private foldInSql(expression: Expression<string | null>): Expression<string | null> {
    return this.engine === 'postgres'
      ? sql<
          string | null
        >`translate(${expression}, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz')`
      : sql<string | null>`lower(${expression})`
  }

  private textCondition(
    expression: Expression<string | null>,
    operator: string,
    value: string,
  ): Condition {
    const length = Array.from(value).length
    const notNull = sql<SqlBool>`${expression} is not null`
    switch (operator) {
      case 'eq':
      case 'ne':
        return sql<SqlBool>`(${notNull} and ${expression} ${sql.raw(SQL_OPERATORS[operator])} ${value})`
      case 'co':
        return this.engine === 'postgres'
          ? sql<SqlBool>`(${notNull} and strpos(${expression}, ${value}) > 0)`
          : sql<SqlBool>`(${notNull} and instr(${expression}, ${value}) > 0)`
      case 'sw':
        return sql<SqlBool>`(${notNull} and substr(${expression}, 1, ${length}) = ${value})`
      case 'ew':
        return sql<SqlBool>`(${notNull} and length(${expression}) >= ${length} and substr(${expression}, length(${expression}) - ${length} + 1) = ${value})`
      default: {
        const ordered =
          this.engine === 'postgres' ? sql`${expression} collate "C"` : sql`${expression}`
        return sql<SqlBool>`(${notNull} and ${ordered} ${sql.raw(SQL_OPERATORS[operator as 'gt'])} ${value})`
      }
    }
  }
}

const SQL_OPERATORS = { eq: '=', ne: '<>', gt: '>', ge: '>=', lt: '<', le: '<=' } as const

const notFilterable = (text: string) =>
  badRequest('invalidFilter', `The filter names "${text}", which cannot be filtered on.`)

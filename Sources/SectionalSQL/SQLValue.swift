/// A value bound to a statement's `$1`, `$2`, … or read from a row.
public enum SQLValue: Sendable, Hashable {
    /// SQL `NULL`.
    case null
    /// A 64-bit integer: ids, counts, cents.
    case integer(Int64)
    /// UTF-8 text; PostgreSQL returns every value this way.
    case text(String)
}

extension SQLValue: ExpressibleByIntegerLiteral, ExpressibleByStringLiteral {
    /// `5` in a parameter list is `.integer(5)`.
    public init(integerLiteral value: Int64) { self = .integer(value) }
    /// `"x"` in a parameter list is `.text("x")`.
    public init(stringLiteral value: String) { self = .text(value) }

    /// An integer value.
    public static func int(_ value: Int) -> SQLValue { .integer(Int64(value)) }
}

/// One row of a result: its columns by position, in the order the query selects them.
///
/// SQLite returns integers as integers; PostgreSQL (text protocol) returns
/// every value as text. The accessors read either, so one query serves both.
public struct SQLRow: Sendable, Equatable {
    /// Every column of every row of the result, row after row: a result's
    /// rows share one array, where an array a row was an allocation a row
    /// (about 9,000 instructions of a page of twenty rows).
    private let all: [SQLValue]
    private let start: Int
    /// How many columns the row has.
    public let count: Int

    /// The columns, in the order the query selects them: a new array each
    /// time (the accessors read a column without one).
    public var values: [SQLValue] { Array(all[start..<(start + count)]) }

    /// A row of these columns.
    public init(_ values: [SQLValue]) { self.init(all: values, start: 0, count: values.count) }

    private init(all: [SQLValue], start: Int, count: Int) {
        self.all = all
        self.start = start
        self.count = count
    }

    /// The `count` rows of a result of `columns` columns each, whose values
    /// are `values`, row after row (a row of no columns, as PostgreSQL's
    /// `SELECT FROM t` gives, holds none).
    public static func rows(of values: [SQLValue], columns: Int, count: Int) -> [SQLRow] {
        precondition(columns >= 0 && count >= 0 && values.count == columns * count, "\(values.count) values are not \(count) rows of \(columns)")
        var rows: [SQLRow] = []
        rows.reserveCapacity(count)
        for row in 0..<count { rows.append(SQLRow(all: values, start: row * columns, count: columns)) }
        return rows
    }

    public static func == (lhs: SQLRow, rhs: SQLRow) -> Bool { lhs.all[lhs.range] == rhs.all[rhs.range] }

    private var range: Range<Int> { start..<(start + count) }

    /// The column at `index`, of this row's.
    private subscript(index: Int) -> SQLValue {
        precondition(index >= 0 && index < count, "column \(index) of a row of \(count)")
        return all[start + index]
    }

    /// The column at `index` as an integer.
    /// - Throws: `SQLError` when it is NULL or not a number.
    public func int(_ index: Int) throws(SQLError) -> Int {
        switch self[index] {
        case .integer(let value): return Int(value)
        case .text(let text):
            if let value = Int(text) { return value }
        case .null: break
        }
        throw SQLError(code: "decode", message: "column \(index) is \(self[index]), not an integer")
    }

    /// The column at `index` as text; NULL reads as `nil`.
    public func optionalText(_ index: Int) -> String? {
        switch self[index] {
        case .null: nil
        case .text(let text): text
        case .integer(let value): String(value)
        }
    }

    /// The column at `index` as text.
    /// - Throws: `SQLError` when it is NULL.
    public func text(_ index: Int) throws(SQLError) -> String {
        guard let text = optionalText(index) else { throw SQLError(code: "decode", message: "column \(index) is NULL") }
        return text
    }

    /// The column at `index` as a boolean: SQLite's 0/1 or PostgreSQL's `t`/`f`.
    public func bool(_ index: Int) throws(SQLError) -> Bool {
        switch self[index] {
        case .integer(let value): return value != 0
        case .text("t"), .text("true"), .text("1"): return true
        case .text("f"), .text("false"), .text("0"): return false
        default: throw SQLError(code: "decode", message: "column \(index) is \(self[index]), not a boolean")
        }
    }

    /// The column at `index` as an integer, or `nil` when NULL.
    public func optionalInt(_ index: Int) throws(SQLError) -> Int? {
        if case .null = self[index] { return nil }
        return try int(index)
    }
}

/// A failed statement, connection or decode, with the engine's code:
/// SQLite's result code name or PostgreSQL's SQLSTATE.
public struct SQLError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `SQLITE_BUSY`, `23505`, `decode`, …
    public var code: String
    /// The engine's message, one line.
    public var message: String

    /// An error with its code and message.
    public init(code: String, message: String) {
        self.code = code
        self.message = message
    }

    /// The message with its code, as logs show it.
    public var description: String { "\(message) [\(code)]" }
}

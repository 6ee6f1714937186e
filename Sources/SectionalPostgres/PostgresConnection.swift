import CLibPQ
import SectionalSQL

#if canImport(Glibc)
    import Glibc
#endif

/// One PostgreSQL connection through libpq's blocking calls (run on a pool
/// thread, they cost less than libpq's non-blocking API and pin nothing).
/// Statements are prepared once per connection and then executed by name.
public final class PostgresConnection: SQLConnection {
    public let dialect = SQLDialect.postgres
    private let connection: OpaquePointer
    private var statements: [String: String] = [:]

    /// Connects with a libpq connection string or URL, e.g. `postgres://app@127.0.0.1:5432/feed`.
    /// - Throws: `SQLError` when the server cannot be reached or refuses.
    public init(url: String) throws(SQLError) {
        guard let connection = PQconnectdb(url) else { throw SQLError(code: "08001", message: "libpq could not allocate a connection") }
        guard PQstatus(connection) == CONNECTION_OK else {
            let message = Self.trimmed(String(cString: PQerrorMessage(connection)))
            PQfinish(connection)
            throw SQLError(code: "08001", message: message)
        }
        self.connection = connection
        sectional_pq_silence_notices(connection)
    }

    deinit { PQfinish(connection) }

    public func query(_ sql: String, _ parameters: [SQLValue]) throws(SQLError) -> [SQLRow] {
        let name = try prepared(sql, parameterCount: parameters.count)
        // libpq wants C strings that live through the call: strdup, then free.
        let values: [UnsafeMutablePointer<CChar>?] = parameters.map { value in
            switch value {
            case .null: nil
            case .integer(let number): strdup(String(number))
            case .text(let text): strdup(text)
            }
        }
        defer { values.forEach { free($0) } }
        let result = values.map { UnsafePointer($0) }.withUnsafeBufferPointer { pointers in
            PQexecPrepared(connection, name, Int32(parameters.count), pointers.baseAddress, nil, nil, 0)
        }
        return try rows(of: result)
    }

    public func executeScript(_ sql: String) throws(SQLError) {
        _ = try rows(of: PQexec(connection, sql))
    }

    public func makeInterrupter() -> SQLInterrupter {
        let cancel = CancelHandle(PQgetCancel(connection))
        return SQLInterrupter {
            guard let handle = cancel.handle else { return }
            var message = [CChar](repeating: 0, count: 256)
            _ = PQcancel(handle, &message, Int32(message.count))
        }
    }

    private func prepared(_ sql: String, parameterCount: Int) throws(SQLError) -> String {
        if let name = statements[sql] { return name }
        let name = "s\(statements.count)"
        _ = try rows(of: PQprepare(connection, name, sql, Int32(parameterCount), nil))
        statements[sql] = name
        return name
    }

    private func rows(of result: OpaquePointer?) throws(SQLError) -> [SQLRow] {
        guard let result else { throw SQLError(code: "08006", message: Self.trimmed(String(cString: PQerrorMessage(connection)))) }
        defer { PQclear(result) }
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_EMPTY_QUERY: return []
        case PGRES_TUPLES_OK: break
        default:
            let code = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) } ?? "XX000"
            throw SQLError(code: code, message: Self.trimmed(String(cString: PQresultErrorMessage(result))))
        }
        let columns = PQnfields(result)
        return (0..<PQntuples(result)).map { row in
            SQLRow(
                (0..<columns).map { column in
                    PQgetisnull(result, row, column) == 1 ? .null : .text(String(cString: PQgetvalue(result, row, column)))
                })
        }
    }

    private static func trimmed(_ message: String) -> String {
        let line = message.split(separator: "\n").first ?? ""
        return String(line.hasPrefix("ERROR:  ") ? line.dropFirst(8) : line)
    }
}

/// libpq's cancel object: made for use from another thread while the connection runs a query.
private final class CancelHandle: @unchecked Sendable {
    let handle: OpaquePointer?
    init(_ handle: OpaquePointer?) { self.handle = handle }
    deinit { PQfreeCancel(handle) }
}

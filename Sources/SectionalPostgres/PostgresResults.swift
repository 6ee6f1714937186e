import CLibPQ
import SectionalSQL

#if canImport(Glibc)
    import Glibc
#endif

/// What a direct connection and the pipeline share of talking to libpq:
/// parameters as C strings, results as rows, messages as one line.
extension sectional_libpq {
    /// Refuses a text parameter that holds a NUL byte: PostgreSQL's text
    /// holds none, and a C string would end there. Refuse, never cut.
    static func refuseNUL(in parameters: [SQLValue]) throws(SQLError) {
        for case .text(let text) in parameters where text.utf8.contains(0) {
            throw SQLError(code: "22021", message: "a text parameter holds a NUL byte, which PostgreSQL cannot store")
        }
    }

    /// Calls `body` with the parameters as C strings (NULL for `.null`),
    /// which libpq reads during the call only.
    static func withCStrings<T>(_ parameters: [SQLValue], _ body: (UnsafePointer<UnsafePointer<CChar>?>?) -> T) -> T {
        let values: [UnsafeMutablePointer<CChar>?] = parameters.map { value in
            switch value {
            case .null: nil
            case .integer(let number): strdup(String(number))
            case .text(let text): strdup(text)
            }
        }
        defer { values.forEach { free($0) } }
        return values.map { UnsafePointer($0) }.withUnsafeBufferPointer { body($0.baseAddress) }
    }

    /// The rows of a result, or its error; `connection`'s error when there is
    /// no result. The result is cleared.
    func rows(of result: OpaquePointer?, on connection: OpaquePointer) throws(SQLError) -> [SQLRow] {
        guard let result else { throw SQLError(code: "08006", message: Self.text(PQerrorMessage(connection))) }
        return try rows(of: result)
    }

    /// The rows of a result, or its error. The result is cleared.
    func rows(of result: OpaquePointer) throws(SQLError) -> [SQLRow] {
        defer { PQclear(result) }
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_EMPTY_QUERY: return []
        case PGRES_TUPLES_OK: break
        default: throw error(of: result)
        }
        let columns = PQnfields(result)
        var values: [SQLValue] = []
        values.reserveCapacity(Int(PQntuples(result)) * Int(columns))
        for row in 0..<PQntuples(result) {
            for column in 0..<columns {
                values.append(
                    PQgetisnull(result, row, column) == 1 ? .null : .text(PQgetvalue(result, row, column).map { String(cString: $0) } ?? ""))
            }
        }
        return SQLRow.rows(of: values, columns: Int(columns), count: Int(PQntuples(result)))
    }

    /// The error a failed result reports, with PostgreSQL's SQLSTATE.
    func error(of result: OpaquePointer) -> SQLError {
        let code = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) } ?? "XX000"
        return SQLError(code: code, message: Self.text(PQresultErrorMessage(result)))
    }

    /// The first line of one of libpq's messages, without its `ERROR:` prefix.
    static func text(_ message: UnsafePointer<CChar>?) -> String {
        let line = (message.map { String(cString: $0) } ?? "").split(separator: "\n").first ?? ""
        return String(line.hasPrefix("ERROR:  ") ? line.dropFirst(8) : line)
    }
}

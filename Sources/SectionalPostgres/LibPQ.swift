import CLibPQ
import SectionalSQL

/// libpq's functions, opened the first time a PostgreSQL connection is made
/// (a server on SQLite or in memory never loads it).
enum LibPQ {
    /// The functions, or why libpq could not be opened: looked up once.
    static let loaded = open("libpq.so.5")

    /// The functions; throws when libpq is not installed.
    static func functions() throws(SQLError) -> sectional_libpq { try loaded.get() }

    /// The functions of the library `soname`, or an error that says which package to install.
    static func open(_ soname: String) -> Result<sectional_libpq, SQLError> {
        var error: UnsafePointer<CChar>?
        let functions = sectional_libpq_open(soname, &error)
        guard let error else { return .success(functions) }
        // 08001: the client could not establish the connection, as PostgreSQL names it.
        let reason = String(cString: error)
        return .failure(SQLError(code: "08001", message: "PostgreSQL needs \(soname) of libpq 14 or later (Debian's libpq5): \(reason)"))
    }
}

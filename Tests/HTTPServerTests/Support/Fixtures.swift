import HTTPServer
import Synchronization

/// An error whose description holds what a client must never see.
struct DatabaseFailure: Error {
    var connection = "postgres://feed:hunter2@db.internal:5432"
}

/// A responder that is not a `Router`: the server itself maps what it throws.
struct ThrowingResponder: Responder {
    let error: any Error & Sendable

    func respond(to request: Request) async throws -> Response {
        throw error
    }
}

extension HTTPHeaders {
    /// The fields as `name: value` lines, in order, for comparing two header lists.
    var lines: [String] { fields.map { "\($0.name): \($0.value)" } }
}

import Synchronization

/// What a request's access-log line says beyond the request itself, learnt
/// while it is answered: who sent it, once the site's sign-in has named
/// them. Every copy of the request shares it (`Request.log`).
///
/// The server's own record of a request is one (`RequestState`), so that
/// noting who asked costs no object of its own.
public class RequestLog: @unchecked Sendable {
    private let who = Mutex<String?>(nil)

    /// A log with nobody named yet.
    public init() {}

    /// Who sent the request (a user's id), as the sign-in named them; `nil` for nobody.
    public var user: String? {
        get { who.withLock { $0 } }
        set { who.withLock { $0 = newValue } }
    }
}

import HTTPServer

extension TestClient {
    /// Posts the sign-in form (`/signin`, as `SectionalAccounts`' routes
    /// serve it) as a browser does, with `next` where the form carries it,
    /// and hands back the answer: a 303 with the session's cookie, or the
    /// form again with its problem.
    public func postSignIn(_ name: String, _ password: String, next: String? = nil, headers: HTTPHeaders = [:]) async throws -> TestResponse {
        try await post("/signin", form: [("name", name), ("password", password)] + (next.map { [("next", $0)] } ?? []), headers: headers)
    }

    /// Signs in: the `Cookie` field's value (`name=token`) of the new
    /// session, for the requests that follow to send.
    /// - Throws: `SignInRefused` when the answer carries no session.
    public func signIn(_ name: String, _ password: String) async throws -> String {
        let response = try await postSignIn(name, password)
        guard let setCookie = response.headers["Set-Cookie"] else {
            throw SignInRefused(description: "signing in as \(name) answered \(response.status)")
        }
        return String(setCookie.prefix { $0 != ";" })
    }
}

/// Signing in gave no session.
public struct SignInRefused: Error, CustomStringConvertible {
    /// Who tried, and what the server answered.
    public var description: String
}

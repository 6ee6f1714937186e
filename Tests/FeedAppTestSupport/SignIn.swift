import FeedApp
import HTTPServer
import SectionalTesting

extension TestClient {
    /// Posts the sign-in form as a browser does (with `next` where the form
    /// carries it) and hands back the answer: a 303 with the session's
    /// cookie, or the form again with its problem.
    public func postSignIn(_ name: String, _ password: String, next: String? = nil, headers: HTTPHeaders = [:]) async throws -> TestResponse {
        try await post("/signin", form: [("name", name), ("password", password)] + (next.map { [("next", $0)] } ?? []), headers: headers)
    }

    /// Signs in as a demo user: the `Cookie` field of the new session.
    public func signIn(_ user: SeedUser = SeedData.users[0]) async throws -> String {
        let response = try await postSignIn(user.name, user.password)
        guard let setCookie = response.headers["Set-Cookie"] else {
            throw SignInRefused(description: "signing in as \(user.name) answered \(response.status)")
        }
        return String(setCookie.prefix { $0 != ";" })
    }
}

/// Signing in gave no session.
public struct SignInRefused: Error, CustomStringConvertible {
    public var description: String
}

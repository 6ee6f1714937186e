import FeedApp
import SectionalTesting

extension TestClient {
    /// Signs in as a demo user through the sign-in form, as a browser does:
    /// the `Cookie` field of the new session.
    public func signIn(_ user: SeedUser = SeedData.users[0]) async throws -> String {
        let response = try await post("/signin", form: [("name", user.name), ("password", user.password)])
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

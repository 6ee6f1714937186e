import FeedApp
import SectionalTesting

extension TestClient {
    /// Signs in as a demo user: the `Cookie` field of the new session.
    public func signIn(_ user: SeedUser = SeedData.users[0]) async throws -> String {
        try await signIn(user.name, user.password)
    }
}

import SectionalSQL
import Testing

@testable import SectionalPostgres

/// Opening libpq that is there is what every PostgreSQL test does first.
@Suite("libpq is opened at run time")
struct LibPQTests {
    @Test("Missing, connecting fails with the package to install")
    func missing() {
        #expect {
            try LibPQ.open("libpq-not-installed.so.5").get()
        } throws: { error in
            let error = error as? SQLError
            return error?.code == "08001" && error?.message.contains("libpq5") == true
                && error?.message.contains("libpq-not-installed.so.5") == true
        }
    }
}

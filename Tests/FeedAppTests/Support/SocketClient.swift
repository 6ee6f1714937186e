import Foundation

/// A minimal blocking HTTP client over a loopback socket, for watching a
/// streamed answer arrive. Reads time out, so a test never hangs.
final class SocketClient: @unchecked Sendable {  // used by one thread at a time
    private let descriptor: Int32
    private(set) var received: [UInt8] = []

    init(port: Int) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var limit = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw POSIXError(.ECONNREFUSED) }
    }

    deinit { close(descriptor) }

    func send(_ text: String) {
        _ = text.withCString { write(descriptor, $0, strlen($0)) }
    }

    /// Reads until the text received so far contains `marker`; `false` on timeout or close.
    func read(until marker: String) -> Bool {
        while !String(decoding: received, as: UTF8.self).contains(marker) {
            var buffer = [UInt8](repeating: 0, count: 65536)
            let count = recv(descriptor, &buffer, buffer.count, 0)
            guard count > 0 else { return false }
            received += buffer[..<count]
        }
        return true
    }

    /// Closes the connection from the client's side.
    func disconnect() { shutdown(descriptor, Int32(SHUT_RDWR)) }
}

/// Runs blocking socket work on a thread of its own, off the concurrency pool the server needs.
func onOwnThread<Result: Sendable>(_ work: @escaping @Sendable () throws -> Result) async throws -> Result {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Swift.Result { try work() }) }.start()
    }
}

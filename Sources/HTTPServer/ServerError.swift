/// Why a server could not start. Each message is one line a person can act on.
public enum ServerError: Error, Equatable, CustomStringConvertible {
    /// Another process listens on the port.
    case addressInUse(host: String, port: Int)
    /// The host is not an address of this machine.
    case cannotResolve(host: String)
    /// A socket call failed.
    case socket(operation: String, errno: Int32)
    /// The static file directory is missing or not a directory.
    case publicDirectory(String)
    /// libmicrohttpd did not start; it logged why.
    case daemonRefused

    public var description: String {
        switch self {
        case .addressInUse(let host, let port):
            "port \(port) on \(host) is already in use; stop the other server or choose another port"
        case .cannotResolve(let host):
            "cannot listen on host '\(host)': not an address of this machine"
        case .socket(let operation, let errno):
            "cannot listen: \(operation) failed with errno \(errno)"
        case .publicDirectory(let path):
            "static file directory '\(path)' does not exist or is not a directory"
        case .daemonRefused:
            "libmicrohttpd refused to start (see the message above)"
        }
    }
}

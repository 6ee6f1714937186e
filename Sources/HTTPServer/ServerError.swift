/// Why a server could not start. Each message is one line a person can act on.
public enum ServerError: Error, Equatable, CustomStringConvertible {
    case addressInUse(host: String, port: Int)
    case cannotResolve(host: String)
    case socket(operation: String, errno: Int32)
    case publicDirectory(String)
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

import NIOCore
import NIOPosix
import NIOSSL

/// What went wrong on the network, in the words a person uses: the one place that turns what NIO throws (a
/// resolver failure, an errno, a TLS alert) into a sentence that names the host and what to check. The HTTP feed
/// loader, the push client and `simulate` all speak through it, so "refused" reads the same everywhere.
public enum NetworkFailure {
    /// A failure to reach `host:port` as one clause ("127.0.0.1:1 refused the connection (is a server running
    /// there?)"), or `nil` when the error is not one NIO reports for a connection (the caller words it then).
    public static func describe(_ error: any Error, host: String, port: Int) -> String? {
        let place = "\(host):\(port)"
        if let error = error as? NIOConnectionError {
            if error.connectionErrors.isEmpty, error.dnsAError != nil || error.dnsAAAAError != nil {
                return unresolved(host)
            }
            // Every address was tried; the first one's failure says it for all (they are usually alike).
            if let first = error.connectionErrors.first { return describe(first.error, host: host, port: port) }
        }
        // What NIO's resolver throws for a name that does not resolve (getaddrinfo's "Name or service not known").
        if error is SocketAddressError.UnknownHost { return unresolved(host) }
        if let error = error as? ChannelError {
            switch error {
            case .connectTimeout: return "\(place) did not accept the connection in time (offline, or blocked?)"
            case .ioOnClosedChannel, .alreadyClosed, .eof, .outputClosed:
                return "\(place) closed the connection before answering"
            default: return nil
            }
        }
        if let error = error as? IOError { return describe(errno: error.errnoCode, place: place) }
        if let error = error as? NIOSSLError { return tls(error, place: place) }
        if let error = error as? BoringSSLError { return tls("\(error)", place: place) }
        return nil
    }

    /// Why a server could not listen on `port`, with the fix ("port 8765 is in use; try --port 0"), or `nil`.
    public static func describeListening(_ error: any Error, host: String, port: Int) -> String? {
        guard let error = error as? IOError else { return nil }
        switch error.errnoCode {
        case 98: return "port \(port) is in use (another server is listening there); try another --port, or --port 0"
        case 13: return "port \(port) needs privileges to listen on; use a port above 1023, or --port 0"
        case 99: return "\(host) is not an address of this machine; listen on 127.0.0.1"
        default: return nil
        }
    }

    private static func unresolved(_ host: String) -> String {
        "could not resolve \(host) (offline, or a typo in the host name?)"
    }

    private static func describe(errno code: CInt, place: String) -> String? {
        switch code {
        case 111: return "\(place) refused the connection (is a server running there?)"
        case 110: return "\(place) did not answer in time (offline, or blocked?)"
        case 101: return "\(place) is unreachable: no network (offline?)"
        case 113: return "\(place) is unreachable: no route to the host (offline?)"
        case 104: return "\(place) reset the connection"
        case 32: return "\(place) closed the connection while the request was being sent"
        default: return nil
        }
    }

    private static func tls(_ error: NIOSSLError, place: String) -> String {
        switch error {
        case .uncleanShutdown: return "\(place) closed the TLS connection without finishing it"
        case .handshakeFailed(let inner): return tls("\(inner)", place: place)
        default: return tls("\(error)", place: place)
        }
    }

    private static func tls(_ text: String, place: String) -> String {
        let lowered = text.lowercased()
        if lowered.contains("wrong_version_number") || lowered.contains("eof during handshake") {
            return "\(place) does not speak TLS on this port (http:// or ws:// instead of https:// or wss://?)"
        }
        if lowered.contains("certificate") {
            let why =
                lowered.contains("expired")
                ? "it has expired" : lowered.contains("self") ? "it is self-signed" : "it could not be verified"
            return "\(place) sent a TLS certificate that was not accepted: \(why)"
        }
        return "the TLS handshake with \(place) failed"
    }
}

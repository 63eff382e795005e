import Foundation
import NIOCore
import NIOPosix

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Which redirects a fetch follows: a feed on the internet must not be able to send the client into the network it
/// runs in (a router's admin page, a cloud metadata service, a database on localhost).
///
/// A redirect to the same host is always followed. A redirect to another host is followed only when none of that
/// host's addresses is private, loopback, link-local or otherwise not on the public internet, unless the source
/// allows it (`allowPrivateRedirects`). Only http and https targets are followed.
enum RedirectPolicy {
    /// Why a redirect is refused, or `nil` when it may be followed.
    static func refusal(from origin: URL, to target: URL, allowPrivate: Bool) async -> String? {
        guard let scheme = target.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            return "it redirects to \(target.absoluteString), which is not an http or https URL"
        }
        guard let host = target.host(percentEncoded: false)?.lowercased(), !host.isEmpty else {
            return "it redirects to \(target.absoluteString), which has no host"
        }
        if allowPrivate || host == origin.host(percentEncoded: false)?.lowercased() { return nil }
        let addresses = await resolve(host)
        guard let inside = addresses.first(where: isNonPublic) else { return nil }
        let shown = addresses.count == 1 || "\(inside)" == host ? "" : " (\(inside))"
        return
            "it redirects from \(origin.host(percentEncoded: false) ?? "its host") to \(host)\(shown), an address inside a private network; follow it only if you trust the feed, with \"allowPrivateRedirects\": true"
    }

    /// Whether an address is not on the public internet: loopback, private (RFC 1918, unique local), link-local,
    /// shared (RFC 6598), unspecified, multicast or reserved.
    static func isNonPublic(_ address: IPAddress) -> Bool {
        switch address {
        case .v4(let bytes):
            let (a, b) = (bytes[0], bytes[1])
            return a == 0 || a == 10 || a == 127 || (a == 169 && b == 254) || (a == 172 && (16...31).contains(b))
                || (a == 192 && b == 168) || (a == 100 && (64...127).contains(b)) || a >= 224
                || (a == 192 && b == 0 && bytes[2] == 0)
        case .v6(let bytes):
            if bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF {
                return isNonPublic(.v4(Array(bytes[12..<16])))  // an IPv4-mapped address
            }
            let unspecifiedOrLoopback = bytes[0..<15].allSatisfy { $0 == 0 } && bytes[15] <= 1
            return unspecifiedOrLoopback || bytes[0] & 0xFE == 0xFC || (bytes[0] == 0xFE && bytes[1] & 0xC0 == 0x80)
                || bytes[0] == 0xFF
        }
    }

    /// An IP address, as the resolver gives it.
    enum IPAddress: Equatable, CustomStringConvertible {
        case v4([UInt8])
        case v6([UInt8])

        var description: String {
            switch self {
            case .v4(let bytes): bytes.map(String.init).joined(separator: ".")
            case .v6(let bytes):
                stride(from: 0, to: 16, by: 2).map { String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16) }
                    .joined(separator: ":")
            }
        }
    }

    /// Every address a host name (or an address literal) resolves to; none when it does not resolve, in which case
    /// the request itself fails with its own message.
    static func resolve(_ host: String) async -> [IPAddress] {
        let name = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        return (try? await NIOThreadPool.singleton.runIfActive { lookUp(name) }) ?? []
    }

    private static func lookUp(_ name: String) -> [IPAddress] {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(name, nil, &hints, &list) == 0, let first = list else { return [] }
        defer { freeaddrinfo(first) }
        var addresses: [IPAddress] = []
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let current = entry {
            if let address = current.pointee.ai_addr {
                switch Int32(current.pointee.ai_family) {
                case AF_INET:
                    address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { pointer in
                        var value = pointer.pointee.sin_addr
                        addresses.append(.v4(withUnsafeBytes(of: &value) { Array($0) }))
                    }
                case AF_INET6:
                    address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { pointer in
                        var value = pointer.pointee.sin6_addr
                        addresses.append(.v6(withUnsafeBytes(of: &value) { Array($0) }))
                    }
                default:
                    break
                }
            }
            entry = current.pointee.ai_next
        }
        return addresses
    }
}

import Foundation

/// Reads an HTTP `Retry-After` header (RFC 9110 section 10.2.3): a number of seconds or an HTTP date.
enum RetryAfter {
    /// The longest wait taken from a server: a week. A larger value is capped, not trusted.
    static let maximum = Duration.seconds(7 * 24 * 3600)

    /// The delay the header asks for, measured from `now`; `nil` when the header is neither form. A date in the
    /// past gives zero.
    static func delay(_ header: String, now: Date) -> Duration? {
        let text = header.trimmingCharacters(in: .whitespaces)
        if !text.isEmpty, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) {
            guard let seconds = Int(text) else { return maximum }
            return min(.seconds(seconds), maximum)
        }
        guard let date = httpDate(text) else { return nil }
        let seconds = max(0, date.timeIntervalSince(now))
        return min(.seconds(seconds.rounded(.up)), maximum)
    }

    /// Parses the IMF-fixdate form (`Sun, 06 Nov 1994 08:49:37 GMT`), the one servers send today.
    private static func httpDate(_ text: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return formatter.date(from: text)
    }
}

/// Reads parameters of an HTTP `Content-Type` header.
enum ContentType {
    /// The `charset` parameter of `header`, unquoted, or `nil` when there is none:
    /// `text/xml; charset="Shift_JIS"` gives `Shift_JIS`.
    static func charset(_ header: String) -> String? {
        for parameter in header.split(separator: ";").dropFirst() {
            let parts = parameter.split(separator: "=", maxSplits: 1)
            guard parts.count == 2,
                parts[0].trimmingWhitespace().lowercased() == "charset"
            else { continue }
            var value = parts[1].trimmingWhitespace()
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
                value = String(value.dropFirst().dropLast())
            }
            return value.isEmpty ? nil : value
        }
        return nil
    }
}

extension Substring {
    fileprivate func trimmingWhitespace() -> String {
        String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }
}

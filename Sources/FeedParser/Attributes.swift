import CLibXML2

/// A view of the attribute array libxml2's SAX2 `startElementNs` passes: five pointers per attribute (local name,
/// prefix, namespace URI, value start, value end).
struct Attributes {
    let pointer: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
    let count: Int

    /// The value of the namespace-less attribute `name`, or `nil`.
    func value(_ name: StaticString) -> String? {
        guard let pointer else { return nil }
        for index in 0..<count where pointer[index * 5 + 2] == nil {
            if let local = pointer[index * 5], Self.equals(local, name) { return value(at: index) }
        }
        return nil
    }

    /// The value of the namespace-less attribute `name` written in any case (CDF's `HREF`), or `nil`.
    func value(anyCase name: StaticString) -> String? {
        guard let pointer else { return nil }
        for index in 0..<count where pointer[index * 5 + 2] == nil {
            if let local = pointer[index * 5], Self.equalsIgnoringCase(local, name) { return value(at: index) }
        }
        return nil
    }

    /// Whether the namespace-less attribute `name` is present, found without building a `String`.
    func has(_ name: StaticString) -> Bool {
        guard let pointer else { return false }
        for index in 0..<count where pointer[index * 5 + 2] == nil {
            if let local = pointer[index * 5], Self.equals(local, name) { return true }
        }
        return false
    }

    /// Whether the namespace-less attribute `name` is present with the value `value`, both compared ASCII
    /// case-insensitively (feeds write `isPermalink="false"`, and feedparser reads attribute names so), without
    /// building a `String`.
    func has(_ name: StaticString, equalTo value: StaticString) -> Bool {
        guard let pointer else { return false }
        for index in 0..<count where pointer[index * 5 + 2] == nil {
            guard let local = pointer[index * 5], Self.equalsIgnoringCase(local, name),
                let start = pointer[index * 5 + 3], let end = pointer[index * 5 + 4],
                end - start == value.utf8CodeUnitCount
            else { continue }
            let expected = value.utf8Start
            return (0..<value.utf8CodeUnitCount).allSatisfy { start[$0] | 0x20 == expected[$0] | 0x20 }
        }
        return false
    }

    /// The value of the attribute `name` in the namespace `namespace` (whatever its prefix), or `nil`; used for
    /// RSS 1.0's `rdf:about`.
    func value(_ name: StaticString, namespace: StaticString) -> String? {
        guard let pointer else { return nil }
        for index in 0..<count {
            guard let local = pointer[index * 5], let uri = pointer[index * 5 + 2] else { continue }
            if Self.equals(local, name), Self.equals(uri, namespace) { return value(at: index) }
        }
        return nil
    }

    /// The value of `xml:base`, or `nil`.
    func xmlBase() -> String? { xmlAttribute("base") }

    /// The value of `xml:lang`, or `nil`.
    func xmlLang() -> String? { xmlAttribute("lang") }

    /// The value of the attribute `xml:name`, or `nil`.
    private func xmlAttribute(_ name: StaticString) -> String? {
        guard let pointer else { return nil }
        for index in 0..<count {
            guard let prefix = pointer[index * 5 + 1], let local = pointer[index * 5] else { continue }
            if Self.equals(prefix, "xml"), Self.equals(local, name) { return value(at: index) }
        }
        return nil
    }

    func localName(at index: Int) -> UnsafePointer<xmlChar>? { pointer?[index * 5] }

    func prefix(at index: Int) -> UnsafePointer<xmlChar>? { pointer?[index * 5 + 1] }

    /// Whether the attribute holds a URL that is resolved when markup is serialized (`href`, `src`).
    func isURL(at index: Int) -> Bool {
        guard let local = pointer?[index * 5] else { return false }
        return Self.equals(local, "href") || Self.equals(local, "src")
    }

    /// The value of the attribute at `index`. libxml2 hands `&` back as `&#38;` when entities are not substituted;
    /// that is undone here.
    func value(at index: Int) -> String {
        guard let pointer, let start = pointer[index * 5 + 3], let end = pointer[index * 5 + 4] else { return "" }
        let buffer = UnsafeBufferPointer(start: start, count: end - start)
        guard buffer.contains(0x26) else { return String(decoding: buffer, as: UTF8.self) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(buffer.count)
        var cursor = 0
        while cursor < buffer.count {
            if buffer[cursor] == 0x26, cursor + 4 < buffer.count, buffer[cursor + 1] == 0x23,
                buffer[cursor + 2] == 0x33,
                buffer[cursor + 3] == 0x38, buffer[cursor + 4] == 0x3B
            {
                bytes.append(0x26)
                cursor += 5
            } else {
                bytes.append(buffer[cursor])
                cursor += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// ``equals(_:_:)`` for an ASCII `name`, letters compared without regard to case.
    private static func equalsIgnoringCase(_ pointer: UnsafePointer<xmlChar>, _ name: StaticString) -> Bool {
        let count = name.utf8CodeUnitCount
        let bytes = name.utf8Start
        for index in 0..<count where pointer[index] | 0x20 != bytes[index] | 0x20 { return false }
        return pointer[count] == 0
    }

    private static func equals(_ pointer: UnsafePointer<xmlChar>, _ name: StaticString) -> Bool {
        let count = name.utf8CodeUnitCount
        let bytes = name.utf8Start
        for index in 0..<count where pointer[index] != bytes[index] { return false }
        return pointer[count] == 0
    }
}

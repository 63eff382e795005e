/// A name in a template's context (`title`, `entries`), with a hash of it computed once: finding a value compares
/// numbers rather than hashing strings.
struct TemplateKey: Sendable, Hashable, Comparable, ExpressibleByStringLiteral, CustomStringConvertible {
    let name: String
    /// FNV-1a of the name's UTF-8: the same in every run, and a few instructions for a short name.
    let hash: UInt64

    init(_ name: String) {
        var name = name
        // Over the contiguous bytes: iterating `utf8` cost as much as the hashing it was to spare.
        hash = name.withUTF8 { bytes in
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
            return hash
        }
        self.name = name
    }

    init(stringLiteral name: String) {
        self.init(name)
    }

    static func == (lhs: TemplateKey, rhs: TemplateKey) -> Bool {
        lhs.hash == rhs.hash && lhs.name == rhs.name
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(hash)
    }

    static func < (lhs: TemplateKey, rhs: TemplateKey) -> Bool {
        lhs.name < rhs.name
    }

    var description: String { name }
}

/// The values of an object in a template's context (the digest, a day, an entry), in the order they were set.
///
/// An object holds twenty values at most, so a value is found by a scan of the keys' hashes: an entry's values were
/// a dictionary that hashed every name when the entry was made and again for every tag that read it (4% of a cold
/// 200-feed digest's instructions). Equal to another object with the same keys and values, in any order.
struct TemplateObject: Sendable, Equatable, ExpressibleByDictionaryLiteral {
    /// The keys and values, in the order they were set (as the literal wrote them: the literal's own array).
    private(set) var members: [(TemplateKey, TemplateData)]

    init(dictionaryLiteral elements: (TemplateKey, TemplateData)...) {
        members = elements
    }

    /// The value set for `key`; setting `nil` removes it.
    subscript(key: TemplateKey) -> TemplateData? {
        get {
            for (memberKey, value) in members where memberKey == key { return value }
            return nil
        }
        set {
            let index = members.firstIndex { $0.0 == key }
            switch (index, newValue) {
            case (let index?, let value?): members[index].1 = value
            case (let index?, nil): members.remove(at: index)
            case (nil, let value?): members.append((key, value))
            case (nil, nil): break
            }
        }
    }

    var count: Int { members.count }
    var isEmpty: Bool { members.isEmpty }

    static func == (lhs: TemplateObject, rhs: TemplateObject) -> Bool {
        lhs.count == rhs.count && lhs.members.allSatisfy { rhs[$0.0] == $0.1 }
    }
}

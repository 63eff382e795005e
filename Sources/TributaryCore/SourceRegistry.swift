/// The adapters a host knows, by `kind`.
///
/// A registry is a value passed to whoever needs it (the CLI builds one from `BuiltInSources.all`), never a global,
/// so tests and third-party executables can build their own.
public struct SourceRegistry: Sendable {
    /// The registered adapters, in the order given.
    public let sourceTypes: [any Source.Type]
    private let byKind: [String: any Source.Type]

    /// Creates a registry.
    /// - Precondition: no two adapters share a `kind` (a programmer error, caught at start-up).
    public init(_ sourceTypes: [any Source.Type]) {
        var byKind: [String: any Source.Type] = [:]
        for type in sourceTypes {
            precondition(byKind[type.kind] == nil, "two adapters registered for kind '\(type.kind)'")
            byKind[type.kind] = type
        }
        self.sourceTypes = sourceTypes
        self.byKind = byKind
    }

    /// The registered kinds, in registration order.
    public var kinds: [String] { sourceTypes.map { $0.kind } }

    /// The adapter for a kind, if one is registered.
    public func sourceType(forKind kind: String) -> (any Source.Type)? {
        byKind[kind]
    }

    /// The registered kind closest to an unknown one (by edit distance), if any is close enough to be a likely
    /// typo: `"rsss"` suggests `"rss"`.
    public func suggestion(forUnknownKind kind: String) -> String? {
        let candidates = kinds.map { (kind: $0, distance: EditDistance.between($0, kind.lowercased())) }
        guard let best = candidates.min(by: { $0.distance < $1.distance }) else { return nil }
        let allowed = max(2, best.kind.count / 3)
        return best.distance <= allowed ? best.kind : nil
    }
}

/// Levenshtein distance, for "did you mean" suggestions.
public enum EditDistance {
    /// The number of single-character insertions, deletions and substitutions that turn `a` into `b`.
    public static func between(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}

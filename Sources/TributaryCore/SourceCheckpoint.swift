import Foundation

/// What a source remembers between runs: a few strings under keys the source chooses, such as `etag`,
/// `last-modified` or `seq`.
///
/// A source sends one with ``EventSink/checkpoint(_:)``; the pipeline stores it after the items sent before it,
/// in the same order, and the next run gets it back as ``SourceContext/savedState``. Keep it small: it is state,
/// not content.
public struct SourceCheckpoint: Sendable, Hashable {
    /// The saved values by key.
    public var values: [String: String]

    /// Creates a checkpoint.
    public init(_ values: [String: String] = [:]) {
        self.values = values
    }

    /// The value under `key`, if any.
    public subscript(key: String) -> String? {
        get { values[key] }
        set { values[key] = newValue }
    }

    /// Whether nothing is saved.
    public var isEmpty: Bool { values.isEmpty }
}

extension SourceCheckpoint {
    /// The checkpoint as a persistent store keeps it: a JSON object, keys sorted.
    public var storedJSON: String {
        get throws {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            return String(decoding: try encoder.encode(values), as: UTF8.self)
        }
    }

    /// Reads a checkpoint back from ``storedJSON``.
    /// - Throws: the decoder's error for text that is not a JSON object of strings.
    public init(storedJSON json: String) throws {
        self.init(try JSONDecoder().decode([String: String].self, from: Data(json.utf8)))
    }
}

/// The options of a `json-file` source: its slice of the feeds.json entry.
///
/// ```json
/// { "id": "reading-list", "kind": "json-file", "path": "examples/reading-list.json" }
/// ```
public struct JSONFileOptions: Decodable, Sendable, Hashable {
    /// The JSON Feed file to read, relative to the directory holding feeds.json (or absolute). It may not lead
    /// outside that directory, through `..` or a symbolic link, unless feeds.json sets `"allowPathsOutside": true`.
    public var path: String

    /// Creates the options.
    /// - Parameter path: the file, as feeds.json would write it.
    public init(path: String) {
        self.path = path
    }
}

/// The options of a `notes` source: its slice of the feeds.json entry.
///
/// ```json
/// { "id": "my-notes", "kind": "notes", "directory": "notes" }
/// ```
public struct NotesOptions: Decodable, Sendable, Hashable {
    /// The directory of Markdown notes, relative to the directory holding feeds.json.
    public var directory: String

    /// Creates the options.
    public init(directory: String) {
        self.directory = directory
    }
}

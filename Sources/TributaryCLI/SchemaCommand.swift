import ArgumentParser
import Foundation
import TributaryCore

/// `tributary schema`: print the parts of feeds.schema.json generated from the adapters' documentation.
struct SchemaCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema",
        abstract: "Print the JSON Schema of every source kind's options, as feeds.schema.json holds them.",
        discussion: """
            Prints {"$defs": {...}, "allOf": [...]}: one definition per registered kind, generated from the \
            adapter's own documentation, and the rules that apply them. Paste them into feeds.schema.json after \
            changing an adapter's options; a test checks the file matches.
            """
    )

    func run() async throws {
        print(try Self.text(for: SourceRegistry(TributaryMain.sources)))
    }

    /// The generated fragments as pretty-printed JSON with sorted keys.
    static func text(for registry: SourceRegistry) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = try encoder.encode(SourceOptionsSchema.fragments(for: registry))
        return String(decoding: data, as: UTF8.self)
    }
}

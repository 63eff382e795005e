import Foundation
import PackagePlugin

/// `swift package new-adapter NAME`: scaffolds a built-in adapter that builds and passes its tests at once.
///
/// For `NAME` (e.g. `Demo`, kind `demo`; `MarkdownNotes`, kind `markdown-notes`) it writes
/// `Sources/NAMEAdapter/` (a source reading a text file, one `URL title` line per item), `Tests/NAMEAdapterTests/`
/// (fixtures and a conformance-kit test), and registers the adapter in the three places that list adapters:
/// the `adapters` array in Package.swift, `BuiltInSources.all`, and feeds.schema.json (its options, its `allOf`
/// rule and its kind). It writes inside the package, so SwiftPM asks for `--allow-writing-to-package-directory`.
@main
struct NewAdapterPlugin: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        guard arguments.count == 1, let first = arguments.first?.first else {
            throw ScaffoldError("usage: swift package --allow-writing-to-package-directory new-adapter NAME")
        }
        let name = first.uppercased() + arguments[0].dropFirst()
        guard name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else {
            throw ScaffoldError("NAME must be letters and digits, such as Demo or MarkdownNotes")
        }
        let kind = Self.kebabCase(name)
        let root = context.package.directoryURL
        let sources = root.appendingPathComponent("Sources/\(name)Adapter")
        let tests = root.appendingPathComponent("Tests/\(name)AdapterTests")
        guard !FileManager.default.fileExists(atPath: sources.path) else {
            throw ScaffoldError("Sources/\(name)Adapter already exists")
        }
        let template = AdapterTemplate(name: name, kind: kind)
        try write(template.source, to: sources.appendingPathComponent("\(name)Source.swift"))
        try write(template.options, to: sources.appendingPathComponent("\(name)Options.swift"))
        try write(template.tests, to: tests.appendingPathComponent("\(name)SourceTests.swift"))
        for (file, text) in template.fixtures {
            try write(text, to: tests.appendingPathComponent("Fixtures/\(file)"))
        }
        try edit(root.appendingPathComponent("Package.swift")) { text in
            try Self.insert(
                "    (\"\(name)\", [], []),\n",
                afterLineContaining:
                    "let adapters: [(name: String, dependencies: [Target.Dependency], testDependencies: "
                    + "[Target.Dependency])] = [",
                in: &text
            )
        }
        try edit(root.appendingPathComponent("Sources/TributaryCLI/BuiltInSources.swift")) { text in
            try Self.addImport("\(name)Adapter", to: &text)
            try Self.insert(
                "        \(name)Source.self,\n",
                afterLineContaining: "static let all: [any Source.Type] = [",
                in: &text
            )
        }
        try edit(root.appendingPathComponent("feeds.schema.json")) { text in
            try Self.insert(template.schemaDefinition, afterLineContaining: "\"$defs\": {", in: &text)
            try Self.insert(template.schemaRule, afterLineContaining: "\"allOf\": [", in: &text)
            guard let range = text.range(of: "{ \"enum\": [") else {
                throw ScaffoldError("feeds.schema.json: no kind enum found; add \"\(kind)\" to it by hand")
            }
            text.replaceSubrange(range, with: "{ \"enum\": [\"\(kind)\", ")
        }
        print(
            """
            Created the \(kind) adapter: Sources/\(name)Adapter, Tests/\(name)AdapterTests; registered it in
            Package.swift, BuiltInSources.swift and feeds.schema.json. Next: swift build && swift test
            """
        )
    }

    private func write(_ text: String, to url: URL) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    private func edit(_ url: URL, _ change: (inout String) throws -> Void) throws {
        var text = try String(contentsOf: url, encoding: .utf8)
        try change(&text)
        try Data(text.utf8).write(to: url)
    }

    /// Inserts `addition` at the start of the line after the first one containing `marker`.
    static func insert(_ addition: String, afterLineContaining marker: String, in text: inout String) throws {
        guard let range = text.range(of: marker), let lineEnd = text[range.upperBound...].firstIndex(of: "\n") else {
            throw ScaffoldError("could not find \(marker); register the adapter by hand")
        }
        text.insert(contentsOf: addition, at: text.index(after: lineEnd))
    }

    /// Adds `import module` to the file's leading block of imports, keeping it sorted by module name.
    static func addImport(_ module: String, to text: inout String) throws {
        var lines = text.components(separatedBy: "\n")
        let block = lines.prefix { $0.hasPrefix("import ") || $0.hasPrefix("public import ") }
        guard !block.isEmpty else { throw ScaffoldError("no imports found; add import \(module) by hand") }
        let sorted = (block + ["import \(module)"]).sorted { lhs, rhs in
            (lhs.split(separator: " ").last ?? "") < (rhs.split(separator: " ").last ?? "")
        }
        lines.replaceSubrange(0..<block.count, with: sorted)
        text = lines.joined(separator: "\n")
    }

    /// `MarkdownNotes` → `markdown-notes`.
    static func kebabCase(_ name: String) -> String {
        var result = ""
        for character in name {
            if character.isUppercase, !result.isEmpty { result += "-" }
            result += character.lowercased()
        }
        return result
    }
}

/// Why scaffolding stopped.
struct ScaffoldError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

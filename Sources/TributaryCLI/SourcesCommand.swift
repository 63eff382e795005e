import ArgumentParser
import TributaryCore

/// `tributary sources`: list the adapter kinds and their options.
struct SourcesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sources",
        abstract: "List the source kinds feeds.json can use, with their options."
    )

    func run() async throws {
        print(Self.listing(of: SourceRegistry(TributaryMain.sources)), terminator: "")
    }

    /// The text `tributary sources` prints.
    static func listing(of registry: SourceRegistry) -> String {
        var text = ""
        for type in registry.sourceTypes {
            let documentation = type.documentation
            text += "\(type.kind)\n    \(documentation.summary)\n"
            if !documentation.options.isEmpty {
                text += "    options:\n"
                let width = documentation.options.map(\.name.count).max() ?? 0
                for option in documentation.options {
                    let padding = String(repeating: " ", count: width - option.name.count)
                    var facts = [option.type.rawValue]
                    if option.isRequired { facts.append("required") }
                    if let value = option.defaultValue { facts.append("default \(value)") }
                    if !option.allowedValues.isEmpty {
                        facts.append("one of \(option.allowedValues.joined(separator: ", "))")
                    }
                    text += "      \(option.name)\(padding)  \(option.help) (\(facts.joined(separator: ", ")))\n"
                }
            }
            text += "    example:\n      \(documentation.example)\n\n"
        }
        text += """
            Every source also takes: id (required, [a-z0-9-]+, unique), kind (required), title, enabled (default
            true), include and exclude (keyword lists), maxItems, timeout (a duration such as 30s).

            """
        return text
    }
}

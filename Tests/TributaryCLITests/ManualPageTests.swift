import Foundation
import Testing

/// docs/tributary.1, the man page `scripts/install.sh` installs, is generated from the command definitions
/// (`scripts/man.sh`, swift-argument-parser's generate-manual plugin). It must not fall behind them: every command
/// and every long option the binary knows (its `--experimental-dump-help`) is in the page.
@Suite struct ManualPageTests {
    struct Help: Decodable {
        struct Command: Decodable {
            var commandName: String
            var arguments: [Argument]?
            var subcommands: [Command]?
            var shouldDisplay: Bool?
        }
        struct Argument: Decodable {
            struct Name: Decodable {
                var kind: String
                var name: String
            }
            var names: [Name]?
            var shouldDisplay: Bool
        }
        var command: Command
    }

    @Test func theManPageHasEveryCommandAndOption() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let page = try String(contentsOf: root.appendingPathComponent("docs/tributary.1"), encoding: .utf8)
        let result = try TributaryProcess.run(["--experimental-dump-help"], in: root)
        #expect(result.status == 0, "\(result.standardError)")
        let help = try JSONDecoder().decode(Help.self, from: Data(result.standardOutput.utf8))
        let hint = "run scripts/man.sh to regenerate docs/tributary.1"
        for command in help.command.subcommands ?? [] where command.shouldDisplay != false {
            if command.commandName == "help" { continue }
            #expect(page.contains(".It Em \(command.commandName)\n"), "\(command.commandName) is missing; \(hint)")
            for argument in command.arguments ?? [] where argument.shouldDisplay {
                for name in argument.names ?? [] where name.kind == "long" {
                    // `.It Fl -pick Ar pick`, or with a short name `.It Fl c , -config Ar config`.
                    let listed = page.contains("Fl -\(name.name)") || page.contains(" , -\(name.name)")
                    #expect(listed, "\(command.commandName) --\(name.name) is missing; \(hint)")
                }
            }
        }
    }
}

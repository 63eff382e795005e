import Foundation
import Testing

/// `validate` checks what `digest` would refuse, without fetching, and says when backed-off sources run next.
@Suite(.serialized) struct ValidateCommandTests {
    @Test func reportsEveryProblemOfEverySourceWithItsPlace() throws {
        let workspace = try Workspace()
        try workspace.write(
            "feeds.json",
            """
            { "sources": [
              { "id": "a", "kind": "json-file", "path": "../outside.json", "enable": false },
              { "id": "b", "kind": "rss", "urll": "https://b.example/feed" }
            ] }
            """
        )
        let result = try TributaryProcess.run(["validate"], in: workspace.url)
        #expect(result.status == 2)
        let lines = result.standardError.split(separator: "\n").map(String.init)
        #expect(
            lines.contains(
                #"feeds.json:2:45: source 'a': "path": invalid value "../outside.json"; leads outside the directory holding feeds.json; move the file there or set "allowPathsOutside": true"#
            ),
            "\(lines)"
        )
        #expect(
            lines.contains(#"feeds.json:2:64: source 'a': "enable": unknown key; did you mean "enabled"?"#),
            "\(lines)"
        )
        #expect(lines.contains(#"feeds.json:3:31: source 'b': "urll": unknown key; did you mean "url"?"#), "\(lines)")
        #expect(lines.contains { $0.contains("source 'b': \"url\": required key is missing") }, "\(lines)")
    }

    @Test func checksTheTemplateAndTheStateDirectory() throws {
        let workspace = try Workspace()
        try workspace.write("afile", "not a directory")
        try workspace.write(
            "feeds.json",
            #"{ "template": "missing.mustache", "state": "afile/state.sqlite", "sources": [] }"#
        )
        let result = try TributaryProcess.run(["validate"], in: workspace.url)
        #expect(result.status == 2)
        #expect(result.standardError.contains(#"feeds.json: "template": missing.mustache: no such file;"#))
        #expect(result.standardError.contains("afile is a file, not a directory; choose another \"store\" path"))
        #expect(!result.standardError.contains("Error Domain"))
    }

    @Test func saysWhenABackedOffSourceIsTriedNext() throws {
        let workspace = try Workspace()
        try workspace.write(
            "feeds.json",
            #"{ "sources": [ { "id": "notes", "kind": "json-file", "path": "notes.json" } ] }"#
        )
        try workspace.write("notes.json", "not json")
        for _ in 0..<2 { _ = try TributaryProcess.run(["digest", "-o", "digest.html"], in: workspace.url) }
        let result = try TributaryProcess.run(["validate"], in: workspace.url)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(
            result.standardOutput.contains(
                "notes (json-file): backing off after 2 failed runs, next try at "
            ),
            "\(result.standardOutput)"
        )
        #expect(result.standardOutput.contains("(digest --retry-failed tries it now)"))
        let retried = try TributaryProcess.run(["digest", "-o", "digest.html", "--retry-failed"], in: workspace.url)
        #expect(retried.standardError.contains("notes.json:1:1: invalid JSON"), "\(retried.standardError)")
    }
}

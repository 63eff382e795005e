import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Files that never end do not hang a run, and `-o` never replaces what it points at (issue 21).
@Suite struct LocalFileSafetyTests {
    @Test func aSourcePathThatIsANamedPipeFailsAtOnceAndTheOthersStillRun() throws {
        let workspace = try Workspace(fixtures: ["news.json"])
        #expect(mkfifo(workspace.url.appendingPathComponent("pipe.json").path, 0o600) == 0)
        #expect(mkfifo(workspace.url.appendingPathComponent("pipe.xml").path, 0o600) == 0)
        try workspace.write(
            "feeds.json",
            """
            { "sources": [
                { "id": "news", "kind": "json-file", "path": "news.json" },
                { "id": "jpipe", "kind": "json-file", "path": "pipe.json", "timeout": "3s" },
                { "id": "rpipe", "kind": "rss", "url": "pipe.xml", "timeout": "3s" }
            ] }
            """
        )
        let started = ContinuousClock.now
        let result = try TributaryProcess.run(
            ["digest", "--no-state", "--format", "json", "-o", "-"],
            in: workspace.url
        )
        #expect(ContinuousClock.now - started < .seconds(10))
        #expect(result.status == 1, "\(result.standardError)")
        #expect(result.standardError.contains("pipe.json: cannot be read (it is a named pipe (FIFO), not a file"))
        #expect(result.standardError.contains("pipe.xml: cannot be read (it is a named pipe (FIFO), not a file"))
        #expect(result.standardOutput.contains("Harbour reopens after the storm"))
    }

    @Test func outputToASymbolicLinkWritesItsTargetAndKeepsItsMode() throws {
        let workspace = try Workspace(fixtures: ["news.json"])
        try workspace.write(
            "feeds.json",
            #"{ "sources": [{ "id": "news", "kind": "json-file", "path": "news.json" }] }"#
        )
        try workspace.write("real.html", "old")
        let real = workspace.url.appendingPathComponent("real.html").path
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: real)
        try FileManager.default.createSymbolicLink(
            atPath: workspace.url.appendingPathComponent("out.html").path,
            withDestinationPath: "real.html"
        )
        let result = try TributaryProcess.run(["digest", "--no-state", "-o", "out.html"], in: workspace.url)
        #expect(result.status == 0, "\(result.standardError)")
        let link = try FileManager.default.attributesOfItem(
            atPath: workspace.url.appendingPathComponent("out.html").path
        )
        #expect(link[.type] as? FileAttributeType == .typeSymbolicLink)
        #expect(try workspace.read("real.html").contains("Harbour reopens after the storm"))
        let mode = try FileManager.default.attributesOfItem(atPath: real)[.posixPermissions] as? Int
        #expect(mode == 0o640)
    }

    @Test func outputToDevStdoutPrintsTheDigest() throws {
        let workspace = try Workspace(fixtures: ["news.json"])
        try workspace.write(
            "feeds.json",
            #"{ "sources": [{ "id": "news", "kind": "json-file", "path": "news.json" }] }"#
        )
        let result = try TributaryProcess.run(
            ["digest", "--no-state", "--format", "markdown", "-o", "/dev/stdout"],
            in: workspace.url
        )
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("Harbour reopens after the storm"))
    }
}

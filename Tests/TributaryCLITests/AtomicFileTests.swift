import Foundation
import Testing

@testable import TributaryCLI

@Suite struct AtomicFileTests {
    @Test func writesNewFileAndReplacesExistingOneLeavingNoTemporaryFiles() throws {
        let workspace = try Workspace()
        let target = workspace.url.appendingPathComponent("digest.html")
        try AtomicFile.write(Data("first".utf8), to: target)
        #expect(try workspace.read("digest.html") == "first")
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: target.path)
        try AtomicFile.write(Data("second".utf8), to: target)
        #expect(try workspace.read("digest.html") == "second")
        let permissions = try FileManager.default.attributesOfItem(atPath: target.path)[.posixPermissions] as? Int
        #expect(permissions == 0o600)
        #expect(try workspace.files() == ["digest.html"])
    }

    @Test func failureNamesThePathAndLeavesTheOldFileAlone() throws {
        let workspace = try Workspace()
        let missing = workspace.url.appendingPathComponent("no/such/dir/digest.html")
        #expect {
            try AtomicFile.write(Data("x".utf8), to: missing)
        } throws: { error in
            "\(error)".contains("no/such/dir/digest.html")
        }
        try workspace.write("keep.html", "old")
        let directoryTarget = workspace.url.appendingPathComponent("sub")
        try FileManager.default.createDirectory(at: directoryTarget, withIntermediateDirectories: false)
        try FileManager.default.createDirectory(
            at: directoryTarget.appendingPathComponent("inner"),
            withIntermediateDirectories: false
        )
        // Renaming a file over a non-empty directory fails; the directory and its contents must survive.
        #expect(throws: (any Error).self) { try AtomicFile.write(Data("x".utf8), to: directoryTarget) }
        #expect(FileManager.default.fileExists(atPath: directoryTarget.appendingPathComponent("inner").path))
        #expect(try workspace.files() == ["keep.html", "sub"])
    }
}

import Foundation
import Testing

@testable import TributaryCLI

#if canImport(Glibc)
import Glibc
#endif

extension OutputFile {
    /// The whole of `data` through one ``Writer``, committed, as `digest -o` writes a digest of one part.
    static func write(_ data: Data, to path: String) throws {
        let writer = try Writer(path: path)
        do {
            try writer.write(Array(data))
            try writer.commit()
        } catch {
            writer.discard()
            throw error
        }
    }
}

/// `digest -o` never damages what it points at: real files, a real symbolic link, a real named pipe.
@Suite struct OutputFileTests {
    private func permissions(_ path: String) throws -> Int? {
        try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
    }

    private func type(_ path: String) throws -> FileAttributeType? {
        try FileManager.default.attributesOfItem(atPath: path)[.type] as? FileAttributeType
    }

    @Test func writesNewFileAndReplacesExistingOneLeavingNoTemporaryFiles() throws {
        let workspace = try Workspace()
        let target = workspace.url.appendingPathComponent("digest.html").path
        let mask = umask(0o027)
        defer { umask(mask) }
        try OutputFile.write(Data("first".utf8), to: target)
        #expect(try workspace.read("digest.html") == "first")
        #expect(try permissions(target) == 0o640)  // 0666 & ~umask
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: target)
        try OutputFile.write(Data("second".utf8), to: target)
        #expect(try workspace.read("digest.html") == "second")
        #expect(try permissions(target) == 0o600)
        #expect(try workspace.files() == ["digest.html"])
    }

    /// A digest streamed a part at a time: readers see the old file until the writer commits, then the whole new
    /// one; a writer that gives up leaves the old file and no temporary file behind.
    @Test func aStreamedFileReplacesTheOldOneOnlyWhenCommitted() throws {
        let workspace = try Workspace()
        let target = workspace.url.appendingPathComponent("digest.json").path
        try OutputFile.write(Data("old".utf8), to: target)

        let abandoned = try OutputFile.Writer(path: target)
        try abandoned.write(Array("half of a".utf8))
        abandoned.discard()
        #expect(try workspace.read("digest.json") == "old")
        #expect(try workspace.files() == ["digest.json"])

        let writer = try OutputFile.Writer(path: target)
        for part in ["{\"items\":[", "1,", "2", "]}"] {
            try writer.write(Array(part.utf8))
            #expect(try workspace.read("digest.json") == "old", "a reader saw a part before the commit")
        }
        try writer.commit()
        #expect(try workspace.read("digest.json") == #"{"items":[1,2]}"#)
        #expect(try workspace.files() == ["digest.json"])
    }

    @Test func aSymbolicLinkIsFollowedAndStaysALink() throws {
        let workspace = try Workspace()
        try FileManager.default.createDirectory(
            at: workspace.url.appendingPathComponent("real"),
            withIntermediateDirectories: false
        )
        try workspace.write("real/digest.html", "old")
        let real = workspace.url.appendingPathComponent("real/digest.html").path
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: real)
        let link = workspace.url.appendingPathComponent("out.html").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "real/digest.html")
        try OutputFile.write(Data("new".utf8), to: link)
        #expect(try type(link) == .typeSymbolicLink)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "real/digest.html")
        #expect(try workspace.read("real/digest.html") == "new")
        #expect(try permissions(real) == 0o640)  // the target's, not the link's 0777

        // A dangling link is followed too: the file it names is created.
        let dangling = workspace.url.appendingPathComponent("dangling.html").path
        try FileManager.default.createSymbolicLink(atPath: dangling, withDestinationPath: "real/created.html")
        try OutputFile.write(Data("made".utf8), to: dangling)
        #expect(try type(dangling) == .typeSymbolicLink)
        #expect(try workspace.read("real/created.html") == "made")

        // A loop is refused with words, not an errno.
        let loop = workspace.url.appendingPathComponent("loop.html").path
        try FileManager.default.createSymbolicLink(atPath: loop, withDestinationPath: "loop.html")
        #expect {
            try OutputFile.write(Data("x".utf8), to: loop)
        } throws: { error in
            "\(error)".contains("goes round in a loop")
        }
    }

    @Test func aNamedPipeIsWrittenInPlaceAndOneWithoutAReaderIsRefusedAtOnce() async throws {
        let workspace = try Workspace()
        let pipe = workspace.url.appendingPathComponent("digest.fifo").path
        #expect(mkfifo(pipe, 0o600) == 0)

        let started = ContinuousClock.now
        #expect {
            try OutputFile.write(Data("x".utf8), to: pipe)
        } throws: { error in
            "\(error)".contains("nothing is reading from it")
        }
        #expect(ContinuousClock.now - started < .seconds(5))

        let reader = Task.detached { () -> String in
            let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: pipe))
            defer { try? handle.close() }
            return String(decoding: handle.readDataToEndOfFile(), as: UTF8.self)
        }
        // Wait until the reader has the pipe open, then write.
        var written = false
        for _ in 0..<200 where !written {
            do {
                try OutputFile.write(Data("through the pipe".utf8), to: pipe)
                written = true
            } catch {
                try await Task.sleep(for: .milliseconds(10))
            }
        }
        #expect(written)
        #expect(try await reader.value == "through the pipe")
        #expect(try type(pipe) != .typeRegular)
        #expect(try workspace.files() == ["digest.fifo"])
    }

    /// `digest -o /dev/null` as root, in a private mount namespace whose /dev is a fresh tmpfs holding its own
    /// null device: if the output replaced the device with a file, only that throwaway /dev would see it.
    @Test(.enabled(if: canMountInAPrivateNamespace, "needs root and permission to mount in a mount namespace"))
    func digestToDevNullAsRootLeavesTheDeviceADevice() throws {
        let workspace = try Workspace()
        try workspace.write(
            "feed.json",
            #"{ "version": "https://jsonfeed.org/version/1.1", "title": "T", "items": [ { "id": "1", "title": "One" } ] }"#
        )
        try workspace.write(
            "feeds.json",
            #"{ "sources": [ { "id": "local", "kind": "json-file", "path": "feed.json" } ] }"#
        )
        let script = """
            mount -t tmpfs tmpfs /dev && mknod -m 666 /dev/null c 1 3 && mknod -m 666 /dev/urandom c 1 9 || exit 99
            "$0" digest --no-state -o /dev/null
            status=$?
            echo "exit $status; /dev/null is a $(stat -c %F /dev/null) with mode $(stat -c %a /dev/null)"
            """
        let result = try TributaryProcess.run(
            [],
            in: workspace.url,
            executable: URL(fileURLWithPath: "/usr/bin/unshare"),
            arguments: [
                "--mount", "--propagation", "private", "sh", "-c", script, try TributaryProcess.executable.path,
            ]
        )
        #expect(
            result.standardOutput.contains("exit 0; /dev/null is a character special file with mode 666"),
            "\(result.standardOutput) \(result.standardError)"
        )
    }

    @Test func standardStreamsAreNamedByDashAndTheirDeviceNames() {
        for path in ["-", "/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"] {
            #expect(OutputFile.standardStream(path) == 1)
        }
        #expect(OutputFile.standardStream("/dev/stderr") == 2)
        #expect(OutputFile.standardStream("digest.html") == nil)
    }

    @Test func temporaryFilesOfKilledRunsAreRemovedAndLiveOnesKept() throws {
        let workspace = try Workspace()
        // A process that has exited: its pid is free.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/true")
        try process.run()
        process.waitUntilExit()
        let dead = process.processIdentifier
        try workspace.write(".digest.html.tmp-\(dead)-AbC123", "half")
        try workspace.write(".digest.html.tmp-Xy9876", "older version's")
        try workspace.write(".digest.html.tmp-\(getpid())-LiVe12", "in progress")
        try workspace.write(".other.html.tmp-\(dead)-AbC123", "another file's")
        try OutputFile.write(Data("done".utf8), to: workspace.url.appendingPathComponent("digest.html").path)
        #expect(
            try workspace.files().sorted()
                == [".digest.html.tmp-\(getpid())-LiVe12", ".other.html.tmp-\(dead)-AbC123", "digest.html"].sorted()
        )
    }

    @Test func failureNamesThePathAndLeavesTheOldFileAlone() throws {
        let workspace = try Workspace()
        let missing = workspace.url.appendingPathComponent("no/such/dir/digest.html").path
        #expect {
            try OutputFile.write(Data("x".utf8), to: missing)
        } throws: { error in
            "\(error)".contains("no/such/dir/digest.html") && "\(error)".contains("does not exist")
        }
        try workspace.write("keep.html", "old")
        let directoryTarget = workspace.url.appendingPathComponent("sub")
        try FileManager.default.createDirectory(
            at: directoryTarget.appendingPathComponent("inner"),
            withIntermediateDirectories: true
        )
        #expect {
            try OutputFile.write(Data("x".utf8), to: directoryTarget.path)
        } throws: { error in
            "\(error)".contains("it is a directory")
        }
        #expect(FileManager.default.fileExists(atPath: directoryTarget.appendingPathComponent("inner").path))
        #expect(try workspace.files() == ["keep.html", "sub"])
    }
}

/// Whether this process may make a mount namespace and mount a tmpfs in it (root, and not a container that forbids it).
private let canMountInAPrivateNamespace: Bool = {
    guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare") else { return false }
    let probe = Process()
    probe.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
    probe.arguments = ["--mount", "--propagation", "private", "sh", "-c", "mount -t tmpfs tmpfs /mnt"]
    probe.standardOutput = FileHandle.nullDevice
    probe.standardError = FileHandle.nullDevice
    guard (try? probe.run()) != nil else { return false }
    probe.waitUntilExit()
    return probe.terminationStatus == 0
}()

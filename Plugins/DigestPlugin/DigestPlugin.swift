import Foundation
import PackagePlugin

/// `swift package digest [tributary digest options]`: builds `tributary` and runs `tributary digest` with the
/// package's feeds.json.
///
/// The digest is written beside feeds.json (or where `-o` says), that is inside the package, so SwiftPM asks for
/// `--allow-writing-to-package-directory`. Exit status 1 of `tributary` (a digest was written but some sources
/// failed) is a warning; any other failure is an error.
@main
struct DigestPlugin: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        let tributary = try context.tool(named: "tributary")
        let directory = context.package.directoryURL
        var options = arguments
        if !options.contains(where: { $0 == "-c" || $0 == "--config" || $0.hasPrefix("--config=") }) {
            options = ["-c", directory.appendingPathComponent("feeds.json").path] + options
        }
        let process = Process()
        process.executableURL = tributary.url
        process.arguments = ["digest"] + options
        process.currentDirectoryURL = directory
        try process.run()
        process.waitUntilExit()
        switch process.terminationStatus {
        case 0:
            break
        case 1:
            Diagnostics.warning("the digest was written, but some sources failed (see above)")
        default:
            Diagnostics.error("tributary digest exited with status \(process.terminationStatus)")
            throw DigestFailure(status: process.terminationStatus)
        }
    }
}

/// `tributary digest` failed.
struct DigestFailure: Error, CustomStringConvertible {
    var status: Int32
    var description: String { "tributary digest exited with status \(status)" }
}

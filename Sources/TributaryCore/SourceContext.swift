public import Foundation
public import Logging

/// What the host gives a source: where it lives, how to log, and what time it is.
///
/// Sources take everything from here and nothing from globals (SRC-11), so tests can run any number of them side
/// by side with their own directories, loggers and clocks.
public struct SourceContext: Sendable {
    /// How long the host wants the source to run.
    public enum Mode: Sendable, Hashable {
        /// `digest`, `summary`, `parse`: deliver what there is now, then finish.
        case oneShot
        /// `watch`: keep delivering until cancelled.
        case live
    }

    /// The logger to use; its metadata already names the source.
    public var logger: Logger
    /// The directory holding feeds.json; relative paths in options resolve against it.
    public var baseDirectory: URL
    /// Whether options may name files outside ``baseDirectory`` (feeds.json's `allowPathsOutside`).
    public var allowsPathsOutsideBaseDirectory: Bool
    /// One-shot or live.
    public var mode: Mode
    /// The current wall-clock time.
    public var now: @Sendable () -> Date
    /// What the source's last ``SourceEvent/checkpoint(_:)`` saved, as the store holds it; empty on a first run or
    /// without a persistent store.
    public var savedState: SourceCheckpoint
    /// The politeness limits every network request of the run goes through; one limiter is shared by all the
    /// sources of a run.
    public var hostLimiter: HostLimiter

    public init(
        logger: Logger = Logger(label: "tributary.source", factory: { _ in SwiftLogNoOpLogHandler() }),
        baseDirectory: URL,
        allowsPathsOutsideBaseDirectory: Bool = false,
        mode: Mode = .oneShot,
        now: @escaping @Sendable () -> Date = { Date() },
        savedState: SourceCheckpoint = SourceCheckpoint(),
        hostLimiter: HostLimiter = HostLimiter()
    ) {
        self.logger = logger
        self.baseDirectory = baseDirectory
        self.allowsPathsOutsideBaseDirectory = allowsPathsOutsideBaseDirectory
        self.mode = mode
        self.now = now
        self.savedState = savedState
        self.hostLimiter = hostLimiter
    }

    /// Whether `path` leads outside ``baseDirectory`` by its spelling alone (`..`, an absolute path elsewhere), when
    /// that is not allowed: what `init` can tell without touching the file system (SRC-1), so that `validate`
    /// reports it at the key. Symbolic links are checked by ``resolvePath(_:)`` when the source runs.
    public func pathLeavesBaseDirectory(_ path: String) -> Bool {
        if allowsPathsOutsideBaseDirectory { return false }
        return !Self.path(
            unresolvedURL(of: path).standardizedFileURL.path,
            isInside: baseDirectory.standardizedFileURL.path
        )
    }

    /// The message for a path ``pathLeavesBaseDirectory(_:)`` refuses.
    public static let pathOutsideMessage =
        "leads outside the directory holding feeds.json; move the file there or set \"allowPathsOutside\": true"

    /// Resolves a path from the options against ``baseDirectory``, refusing one that escapes it unless
    /// ``allowsPathsOutsideBaseDirectory`` is set. `..` components and symbolic links are resolved first, so
    /// neither can be used to step outside.
    /// - Returns: the absolute file URL, or `nil` when the path escapes the base directory.
    public func resolvePath(_ path: String) -> URL? {
        let resolved = unresolvedURL(of: path).standardizedFileURL.resolvingSymlinksInPath()
        if allowsPathsOutsideBaseDirectory { return resolved }
        let base = baseDirectory.standardizedFileURL.resolvingSymlinksInPath().path
        return Self.path(resolved.path, isInside: base) ? resolved : nil
    }

    /// `path` (`~` expanded) as a file URL: absolute as written, else under ``baseDirectory``.
    private func unresolvedURL(of path: String) -> URL {
        let expanded = (path as NSString).expandingTildeInPath
        return expanded.hasPrefix("/") ? URL(fileURLWithPath: expanded) : baseDirectory.appendingPathComponent(expanded)
    }

    /// Whether the normalised `path` is `base` or under it.
    private static func path(_ path: String, isInside base: String) -> Bool {
        path == base || path.hasPrefix(base.hasSuffix("/") ? base : base + "/")
    }
}

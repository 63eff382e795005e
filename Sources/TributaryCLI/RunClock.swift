import Foundation

/// The time a command runs at. Honours `SOURCE_DATE_EPOCH` (https://reproducible-builds.org/specs/source-date-epoch/),
/// so a digest made twice from the same inputs is byte for byte the same: useful for tests, for diffing digests,
/// and for checking a digest into version control.
enum RunClock {
    /// The fixed time from `SOURCE_DATE_EPOCH`, when it is set to a whole number of seconds.
    static func fixedNow(environment: [String: String] = ProcessInfo.processInfo.environment) -> Date? {
        guard let value = environment["SOURCE_DATE_EPOCH"], let seconds = Int64(value) else { return nil }
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    /// A clock function: the fixed time when `SOURCE_DATE_EPOCH` is set, the real time otherwise.
    static func now(environment: [String: String] = ProcessInfo.processInfo.environment) -> @Sendable () -> Date {
        if let fixed = fixedNow(environment: environment) { return { fixed } }
        return { Date() }
    }
}

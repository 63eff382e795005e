public import Foundation

/// One input the conformance kit runs an adapter against, and what kind of input it is.
///
/// The kit does not prepare the input itself: the test that calls ``SourceConformance/check(_:fixture:options:)``
/// puts the file, server or script in place and passes a closure that makes the source reading it. The fixture
/// tells the kit what to expect, so that it can check the rules that depend on the input (SRC-4, SRC-9, SRC-10,
/// SRC-12).
///
/// ```swift
/// let fixture = ConformanceFixture("every-field-1.1.json", expectation: .items)
/// try await SourceConformance.check({ try JSONFileSource(id: "kit", options: .init(path: path), context: context) },
///     fixture: fixture)
/// ```
public struct ConformanceFixture: Sendable, CustomStringConvertible {
    /// What a run over the input should deliver.
    public enum Expectation: Sendable, Hashable {
        /// A well-formed feed with at least one item: the run finishes (`finished`) with items.
        case items
        /// A well-formed feed with no items (SRC-9): the run finishes with zero items.
        case empty
        /// A broken input (SRC-9): the run ends in `failed` (or throws), or delivers at least one `warning`.
        case malformed
        /// An input that cannot be reached at all (a missing file, an unreachable URL, a missing program): `init`
        /// still succeeds at once (SRC-1) and the run ends in `failed` (or throws), without hanging.
        case unreachable
    }

    /// The fixture's name, for messages (usually its file name).
    public var name: String
    /// What a run should deliver.
    public var expectation: Expectation
    /// Whether the input holds enough items to arrive in more than one `items` event (SRC-12); the kit then
    /// requires at least two `items` events.
    public var expectsSeveralBatches: Bool
    /// The range every date written in the input lies in, when the fixture knows it (SRC-4). An item date outside
    /// it was invented (such as "now") or lost its offset. `nil` checks only what holds for every input: no date
    /// far in the future, and no date that is the time of the run.
    public var inputDates: ClosedRange<Date>?
    /// Called after the cancelled run has returned, to look for what it left open (SRC-10): a process still
    /// running, a file still locked, a socket still connected. Returns a description of each leak; empty when
    /// nothing leaked.
    public var leakCheck: (@Sendable () async -> [String])?

    /// Creates a fixture.
    /// - Parameters:
    ///   - name: the fixture's name, for messages.
    ///   - expectation: what a run over it should deliver.
    ///   - expectsSeveralBatches: whether it holds enough items for more than one `items` event.
    ///   - inputDates: the range every date in the input lies in, when known.
    ///   - leakCheck: what to look at after a cancelled run to find leaked resources.
    public init(
        _ name: String,
        expectation: Expectation,
        expectsSeveralBatches: Bool = false,
        inputDates: ClosedRange<Date>? = nil,
        leakCheck: (@Sendable () async -> [String])? = nil
    ) {
        self.name = name
        self.expectation = expectation
        self.expectsSeveralBatches = expectsSeveralBatches
        self.inputDates = inputDates
        self.leakCheck = leakCheck
    }

    public var description: String { name }
}

/// The limits the conformance kit holds an adapter to.
///
/// The defaults follow the `Source` rules (a second to stop after cancellation); raise the run timeout for
/// fixtures that are slow on purpose.
public struct ConformanceOptions: Sendable {
    /// How long `init` (the `make` closure) may take (SRC-1). Construction that touches the network or the disk
    /// blocks for longer than this on an unreachable URL or a slow disk.
    public var initDeadline: Duration
    /// How long one run may take before it counts as a hang (SRC-9).
    public var runTimeout: Duration
    /// How soon `run` must return after its task is cancelled (SRC-10).
    public var cancellationDeadline: Duration
    /// How long the kit waits for the first event before it cancels the run it cancels (SRC-10); it cancels at the
    /// first event, or after this delay when no event has come.
    public var cancellationDelay: Duration
    /// How far past the wall clock an item date may lie before it counts as wrong (SRC-4): feeds do announce
    /// events ahead, but not by more than this in a fixture.
    public var futureTolerance: Duration
    /// How long the kit waits after the last run for events sent after `run` returned (SRC-8, SRC-10).
    public var settleTime: Duration
    /// The most violations reported per rule; the rest are counted in one summary line.
    public var maximumViolationsPerRule: Int

    /// Creates options; every limit has a default.
    public init(
        initDeadline: Duration = .milliseconds(250),
        runTimeout: Duration = .seconds(10),
        cancellationDeadline: Duration = .seconds(1),
        cancellationDelay: Duration = .milliseconds(20),
        futureTolerance: Duration = .seconds(2 * 86_400),
        settleTime: Duration = .milliseconds(100),
        maximumViolationsPerRule: Int = 5
    ) {
        self.initDeadline = initDeadline
        self.runTimeout = runTimeout
        self.cancellationDeadline = cancellationDeadline
        self.cancellationDelay = cancellationDelay
        self.futureTolerance = futureTolerance
        self.settleTime = settleTime
        self.maximumViolationsPerRule = maximumViolationsPerRule
    }
}

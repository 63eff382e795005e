public import Foundation
import Synchronization
public import TributaryCore

/// A source's latest HTTP validators: first those of the previous run (its ``SourceContext/savedState``), then
/// those of each fetch in this process, so that `watch`, which fetches the same source again and again, polls
/// conditionally too.
///
/// It also ends a run the way a conditional fetch should: `notModified` after a `304`, otherwise a checkpoint
/// with the new validators (sent after the items, so the pipeline stores them after the items) and `finished`.
public final class ValidatorMemory: Sendable {
    private let latest: Mutex<SourceCheckpoint>

    /// Starts from the checkpoint the previous run saved.
    public init(savedState: SourceCheckpoint) {
        latest = Mutex(savedState)
    }

    /// The validators to send to `url`; empty when none are known for that URL.
    public func validators(for url: URL) -> Validators {
        latest.withLock { Validators(checkpoint: $0, url: url.absoluteString) }
    }

    /// Sends the terminal events of a read of `url` that ended with `result`: `notModified`, or the validators'
    /// checkpoint (when the server sent any) and `finished`.
    public func finish(_ result: FeedReadResult, of url: URL, into sink: EventSink) async {
        if result.isNotModified {
            await sink.notModified()
            return
        }
        if !result.validators.isEmpty {
            let checkpoint = result.validators.checkpoint(for: url.absoluteString)
            latest.withLock { $0 = checkpoint }
            await sink.checkpoint(checkpoint)
        }
        await sink.finished()
    }
}

import Foundation
import TributaryCore

/// Runs a source for `watch`: again and again, every `interval`, as one long-running source.
///
/// A pull source (RSS, a JSON file) finishes after each fetch; this wrapper forwards its items and warnings, turns
/// a failed fetch into a warning (the next fetch may succeed), waits `interval`, and fetches again, each fetch
/// bounded by `fetchTimeout`. A live source (push) runs inside it without a fetch timeout: it ends only when it
/// gives up, and is then restarted after `interval` like a failed fetch. The wrapper sends `started` once and
/// nothing terminal: it runs until cancelled.
///
/// A pull source's checkpoints (its HTTP validators) are not passed on to the store: `watch` records no outcomes, so
/// it never makes a fetch's items the source's current items, and a later `digest` answered `304` on validators
/// saved by `watch` would serve the items of the last digest instead of those `watch` saw. The source keeps its
/// validators in memory between polls (``ValidatorMemory``), so `watch` still polls conditionally. A live source's
/// checkpoint (its resume cursor) is passed on.
struct PollingSource: Source {
    struct Options: Decodable, Sendable {}

    static let kind = "polling"
    static let documentation = SourceDocumentation(summary: "watch's wrapper.", options: [], example: "{}")

    let inner: any Source
    let interval: Duration
    /// The timeout of one fetch; `nil` for a live source.
    let fetchTimeout: Duration?
    /// Waits between fetches; replaced in tests.
    var sleep: @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }

    var id: SourceID { inner.id }

    /// Whether the inner source is a live one (push), which runs until it gives up rather than fetching.
    var isLive: Bool { fetchTimeout == nil }

    init(id: SourceID, options: Options, context: SourceContext) throws {
        throw SourceOptionError(key: "kind", message: "is internal to `tributary watch`")
    }

    init(inner: any Source, interval: Duration, fetchTimeout: Duration?) {
        self.inner = inner
        self.interval = interval
        self.fetchTimeout = fetchTimeout
    }

    func run(into sink: EventSink) async throws {
        await sink.started()
        var fetch = 0
        while true {
            try Task.checkCancellation()
            fetch += 1
            let terminal = await runOnce(into: sink)
            try Task.checkCancellation()
            switch terminal {
            case .failed(let error):
                await sink.warning(
                    "\(error.reasonDescription); trying again in \(DurationFormat.string(interval))",
                    location: "fetch \(fetch)"
                )
            case .finished, nil:
                break
            }
            try await sleep(interval)
        }
    }

    // MARK: - Private

    private enum Terminal: Sendable {
        case finished
        case failed(SourceError)
    }

    /// One run of the inner source, forwarding items and warnings; returns its terminal event.
    private func runOnce(into sink: EventSink) async -> Terminal? {
        let terminal = TerminalBox()
        let isLive = isLive
        let forward = EventSink { event in
            switch event {
            case .started: break
            case .items, .warning: await sink.send(event)
            case .checkpoint: if isLive { await sink.send(event) }
            // Between polls, "not modified" means nothing to print: the items are on screen already.
            case .finished, .notModified: await terminal.set(.finished)
            case .failed(let error): await terminal.set(.failed(error))
            }
        }
        let inner = inner
        let id = id
        let fetchTimeout = fetchTimeout
        await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                do {
                    try await inner.run(into: forward)
                } catch is CancellationError {
                } catch {
                    let sourceError =
                        (error as? SourceError)
                        ?? SourceError(sourceID: id, reason: .other(String(describing: error)), underlying: error)
                    await terminal.set(.failed(sourceError))
                }
                return true
            }
            if let fetchTimeout {
                group.addTask {
                    do {
                        try await Task.sleep(for: fetchTimeout)
                    } catch {
                        return false
                    }
                    await terminal.set(.failed(SourceError(sourceID: id, reason: .timedOut(after: fetchTimeout))))
                    return true
                }
            }
            _ = await group.next()
            group.cancelAll()
        }
        return await terminal.value
    }

    private actor TerminalBox {
        private(set) var value: Terminal?
        func set(_ terminal: Terminal) {
            if value == nil { value = terminal }
        }
    }
}

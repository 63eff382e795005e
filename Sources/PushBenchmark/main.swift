// Measures the push path end to end: the simulator server on 127.0.0.1, a push source over WebSocket, the pipeline.
// Prints items per second at full rate and the latency from an item's scheduled send time to its emission by the
// pipeline (median, p99) at a moderate rate. Run with `scripts/bench-push.sh`.
import Foundation
import PushAdapter
import TributaryCore

struct Measurement: Sendable {
    var items: Int
    var seconds: Double
    var latencies: [Double]
}

func seconds(_ duration: Duration) -> Double {
    let (whole, fraction) = duration.components
    return Double(whole) + Double(fraction) / 1e18
}

/// Runs a simulator with `rate` and a push source through a pipeline until `count` items were emitted.
func measure(rate: Double, backlog: Int, count: Int) async throws -> Measurement {
    let epoch = Date(timeIntervalSince1970: 1_767_225_600)
    let configuration = PushSimulatorConfiguration(seed: 1, rate: rate, backlog: backlog, epoch: epoch)
    let server = PushSimulatorServer(configuration: configuration, port: 0)
    let (ports, continuation) = AsyncStream<Int>.makeStream()
    let clock = ContinuousClock()
    // Taken before the server starts its timeline, so latencies err on the long side.
    let serverStart = clock.now
    return try await withThrowingTaskGroup(of: Measurement?.self) { group in
        group.addTask {
            try await server.run { port in
                continuation.yield(port)
                continuation.finish()
            }
            return nil
        }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else { throw CancellationError() }
        var options = PushOptions(url: "ws://127.0.0.1:\(port)/feed")
        options.maxMessageSize = 1 << 20
        let context = SourceContext(baseDirectory: URL(fileURLWithPath: NSTemporaryDirectory()), mode: .live)
        let source = try PushSource(id: "bench", options: options, context: context)
        let pipeline = Pipeline(
            sources: [PipelineSource(source: source, kind: "push", timeout: .seconds(3600))],
            settings: PipelineSettings(defaultTimeout: .seconds(3600)),
            store: InMemoryItemStore()
        )
        let result = try await withThrowingTaskGroup(of: Measurement?.self) { inner in
            let (emitted, emit) = AsyncStream<(Int64, ContinuousClock.Instant)>.makeStream()
            inner.addTask {
                _ = try await pipeline.run { event in
                    guard case .itemsAdded(let items) = event else { return }
                    let now = clock.now
                    for item in items {
                        if let seq = item.id.split(separator: "-").last.flatMap({ Int64($0) }) {
                            emit.yield((seq, now))
                        }
                    }
                }
                return nil
            }
            inner.addTask {
                var latencies: [Double] = []
                var received = 0
                var first: ContinuousClock.Instant?
                var last = clock.now
                for await (seq, instant) in emitted {
                    received += 1
                    if seq > Int64(backlog) {
                        first = first ?? instant
                        last = instant
                        let due = serverStart + .seconds(Double(seq - Int64(backlog)) / rate)
                        latencies.append(max(0, seconds(instant - due)))
                    }
                    if received >= count { break }
                }
                let span = first.map { seconds(last - $0) } ?? 0
                return Measurement(items: latencies.count, seconds: span, latencies: latencies.sorted())
            }
            var measurement: Measurement?
            while let next = try await inner.next() {
                if let next {
                    measurement = next
                    break
                }
            }
            inner.cancelAll()
            return measurement
        }
        group.cancelAll()
        guard let result else { throw CancellationError() }
        return result
    }
}

func percentile(_ sorted: [Double], _ p: Double) -> Double {
    guard !sorted.isEmpty else { return .nan }
    return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * p).rounded()))]
}

let fullRate = try await measure(rate: 1_000_000, backlog: 0, count: 50_000)
print(
    String(
        format: "throughput: %.0f items/s (%d live items in %.2f s, simulator at full rate)",
        Double(fullRate.items) / max(fullRate.seconds, 1e-9),
        fullRate.items,
        fullRate.seconds
    )
)
let paced = try await measure(rate: 500, backlog: 0, count: 2_500)
print(
    String(
        format: "latency send-to-emit at 500 items/s: median %.2f ms, p99 %.2f ms (%d items)",
        percentile(paced.latencies, 0.5) * 1000,
        percentile(paced.latencies, 0.99) * 1000,
        paced.latencies.count
    )
)

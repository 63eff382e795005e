import Foundation
public import TributaryCore

/// The conformance kit: runs an adapter over one fixture and checks the rules written on ``Source``, reporting each
/// broken rule by its id (`SRC-1` … `SRC-12`).
///
/// For each fixture the kit makes the source five times with the `make` closure and runs it: twice one after the
/// other (to compare ids and dates across runs), twice side by side (SRC-11), and once cancelled (SRC-10). Each
/// source runs in a task of its own, so a source that hangs or ignores cancellation is reported rather than
/// hanging the kit (such a task is abandoned, still running).
///
/// What is checked, rule by rule:
///
/// - SRC-1: `make` returns within ``ConformanceOptions/initDeadline`` and does not throw for the fixture's options
///   (an `init` that opens a connection or a file blocks for longer on an unreachable URL or a missing file; use
///   an ``ConformanceFixture/Expectation/unreachable`` fixture). Whether `init` starts a task is checked
///   indirectly: no event may arrive after `run` has returned.
/// - SRC-2: every item id is non-empty, and both sequential runs yield the same ids (as a multiset).
/// - SRC-3: every item's `_tributary.source` is the source's ``Source/id``.
/// - SRC-4: a `Date` has no time zone: "UTC" means the instant is right, with any offset in the input applied.
///   The kit checks what can be checked of that: no date lies more than ``ConformanceOptions/futureTolerance``
///   after the run; a date that differs between the two runs and falls within the second run was made up from the
///   clock ("now") rather than read; with ``ConformanceFixture/inputDates``, every date lies within the input's
///   range (a dropped positive offset moves a date later, out of the range).
/// - SRC-5: `url`, `external_url`, `image`, `banner_image`, attachment URLs and author URLs and avatars have a
///   scheme (and a host for web URLs); `//host/path` is not absolute.
/// - SRC-6: titles and summaries hold no tag and no character reference (see `PlainTextScanner`).
/// - SRC-7: `content_html` holds no `script`, `style`, `iframe`, `object`, `embed`, `form` (and kin), no `on…`
///   attribute, and no `javascript:`, `vbscript:` or `data:` URL, even hidden with character references: a
///   conservative scan, not a sanitizer.
/// - SRC-8: in every run, the first event is `started`, `started` comes once, exactly one terminal event
///   (`finished` or `failed`) ends the run, or `run` throws instead, and nothing follows it: no event after the
///   terminal one, no throw after it, and no event after `run` has returned (the kit waits
///   ``ConformanceOptions/settleTime`` after the last run to see late ones).
/// - SRC-9: per ``ConformanceFixture/expectation``: `.empty` finishes with zero items; `.malformed` ends in
///   `failed` (or a throw) or sends at least one warning; `.unreachable` ends in `failed` or a throw; `.items`
///   delivers at least one item and does not fail. (A missing terminal event is SRC-8's business.) Any run that does not end within ``ConformanceOptions/runTimeout`` is a
///   hang. A crash cannot be caught by a library in the same process: it ends the test run, which fails too.
/// - SRC-10: a run cancelled at its first event (or after ``ConformanceOptions/cancellationDelay``) returns within
///   ``ConformanceOptions/cancellationDeadline``, and the fixture's ``ConformanceFixture/leakCheck`` finds nothing
///   left open afterwards. That the kit cannot see sockets, files and processes by itself is why the leak check
///   is the fixture's.
/// - SRC-11: global state and `print` cannot be observed from outside. What is checked: two instances run side by
///   side deliver the same items as a run on its own (shared mutable state shows up as lost, doubled or mixed
///   items; compared only when two sequential runs agree), and every run gets its own instance, so state kept across runs in a global shows up in SRC-2.
/// - SRC-12: for a fixture with ``ConformanceFixture/expectsSeveralBatches``, the items come in at least two
///   `items` events. Whether the first batch comes before the whole input is read cannot be seen from events alone
///   for a fast input; adapters test that with an input that stalls.
public enum SourceConformance {
    /// Checks a source against every rule the kit can check, on one fixture.
    ///
    /// - Parameters:
    ///   - make: makes a fresh source reading the fixture's input; called once per run (five times).
    ///   - fixture: what the input is, so the kit knows what to expect.
    ///   - options: the kit's time limits.
    /// - Throws: ``ConformanceReport`` listing every ``ConformanceViolation`` found, when there is any.
    public static func check<S: Source>(
        _ make: @escaping @Sendable () throws -> S,
        fixture: ConformanceFixture,
        options: ConformanceOptions = ConformanceOptions()
    ) async throws {
        let report = await report(make, fixture: fixture, options: options)
        if !report.isConforming { throw report }
    }

    /// Checks a source like ``check(_:fixture:options:)`` and returns the report instead of throwing it.
    ///
    /// - Parameters:
    ///   - make: makes a fresh source reading the fixture's input; called once per run.
    ///   - fixture: what the input is.
    ///   - options: the kit's time limits.
    /// - Returns: the report; ``ConformanceReport/isConforming`` when nothing was found.
    public static func report<S: Source>(
        _ make: @escaping @Sendable () throws -> S,
        fixture: ConformanceFixture,
        options: ConformanceOptions = ConformanceOptions()
    ) async -> ConformanceReport {
        var collector = ViolationCollector(fixture: fixture.name, limit: options.maximumViolationsPerRule)
        func finish() -> ConformanceReport {
            ConformanceReport(kind: S.kind, fixture: fixture.name, violations: collector.sorted)
        }
        guard let first = makeSource(make, options: options, into: &collector) else { return finish() }
        let inspector = ItemInspector(sourceID: first.id, fixture: fixture, options: options)
        var records: [RunRecord] = []

        let run1 = await execute(first, label: "first run", limit: options.runTimeout)
        records.append(run1)
        checkSequence(run1, into: &collector)
        checkExpectation(run1, fixture: fixture, options: options, into: &collector)
        inspector.inspect(run1, into: &collector)
        if fixture.expectsSeveralBatches, run1.itemBatchCount < 2 {
            collector.add(
                "SRC-12",
                "the \(run1.items.count) items of a large input came in \(run1.itemBatchCount) items event; emit them in batches as they are read"
            )
        }

        guard let second = makeSource(make, options: options, into: &collector) else { return finish() }
        let run2 = await execute(second, label: "second run", limit: options.runTimeout)
        records.append(run2)
        checkSequence(run2, into: &collector)
        inspector.inspect(run2, into: &collector)
        compare(run1, run2, into: &collector)

        if run1.outcome != nil, run2.outcome != nil,
            let left = makeSource(make, options: options, into: &collector),
            let right = makeSource(make, options: options, into: &collector)
        {
            async let leftRun = execute(left, label: "concurrent run", limit: options.runTimeout)
            async let rightRun = execute(right, label: "concurrent run", limit: options.runTimeout)
            let pair = await [leftRun, rightRun]
            records += pair
            // Only a source that is stable on its own can be compared with itself side by side.
            let stableIDs = run1.items.map(\.id).sorted() == run2.items.map(\.id).sorted()
            for record in pair {
                checkSequence(record, into: &collector)
                if stableIDs {
                    checkConcurrent(record, against: run1, stable: run1.items == run2.items, into: &collector)
                }
            }
        }

        if let cancelled = makeSource(make, options: options, into: &collector) {
            let record = await executeCancelled(cancelled, options: options, into: &collector)
            records.append(record)
            if record.outcome != nil, let leakCheck = fixture.leakCheck {
                for leak in await leakCheck() {
                    collector.add("SRC-10", "after the cancelled run returned, \(leak) was left open")
                }
            }
        }

        // Events that arrive after `run` returned come from work the source left running (a task, a callback).
        try? await Task.sleep(for: options.settleTime)
        for record in records where record.outcome != nil {
            let late = record.sink.count - record.entries.count
            if late > 0 {
                collector.add(
                    "SRC-8",
                    "\(late) event\(late == 1 ? "" : "s") arrived after run(into:) had returned (\(record.label)); something the source started is still running"
                )
            }
        }
        return finish()
    }

    // MARK: - Private

    private static func makeSource<S: Source>(
        _ make: @Sendable () throws -> S,
        options: ConformanceOptions,
        into collector: inout ViolationCollector
    ) -> S? {
        let clock = ContinuousClock()
        let start = clock.now
        do {
            let source = try make()
            let elapsed = clock.now - start
            if elapsed > options.initDeadline {
                collector.add(
                    "SRC-1",
                    "making the source took \(ItemInspector.describe(elapsed)), more than \(ItemInspector.describe(options.initDeadline)); init must validate only, with no I/O"
                )
            }
            return source
        } catch {
            collector.add(
                "SRC-1",
                "init threw for the fixture's well-formed options: \(error); init validates options only, and problems reaching the input are reported by run"
            )
            return nil
        }
    }

    /// Runs a source in a task of its own, waiting at most `limit`.
    private static func execute<S: Source>(_ source: S, label: String, limit: Duration) async -> RunRecord {
        let sink = RecordingSink()
        let completion = RunCompletion()
        let wallStart = Date()
        let task = Task {
            do {
                try await source.run(into: sink.sink)
                completion.complete(.returned)
            } catch {
                completion.complete(.threw(String(describing: error), isCancellation: error is CancellationError))
            }
        }
        let outcome = await completion.wait(atMost: limit)
        let entries = sink.recorded
        if outcome == nil { task.cancel() }
        return RunRecord(
            label: label,
            sink: sink,
            entries: entries,
            outcome: outcome,
            wallStart: wallStart,
            wallEnd: Date()
        )
    }

    /// Runs a source and cancels it at its first event; checks it returns in time (SRC-10).
    private static func executeCancelled<S: Source>(
        _ source: S,
        options: ConformanceOptions,
        into collector: inout ViolationCollector
    ) async -> RunRecord {
        let sink = RecordingSink()
        let completion = RunCompletion()
        let wallStart = Date()
        let clock = ContinuousClock()
        let task = Task {
            do {
                try await source.run(into: sink.sink)
                completion.complete(.returned)
            } catch {
                completion.complete(.threw(String(describing: error), isCancellation: error is CancellationError))
            }
        }
        let giveUp = clock.now + options.cancellationDelay
        while sink.count == 0, completion.outcome == nil, clock.now < giveUp {
            try? await Task.sleep(for: .milliseconds(1))
        }
        let cancelledAt = clock.now
        let endedBeforeCancellation = completion.outcome != nil
        task.cancel()
        let outcome = await completion.wait(atMost: options.cancellationDeadline)
        let entries = sink.recorded
        let record = RunRecord(
            label: "cancelled run",
            sink: sink,
            entries: entries,
            outcome: outcome,
            wallStart: wallStart,
            wallEnd: Date()
        )
        if outcome == nil {
            collector.add(
                "SRC-10",
                "run(into:) had not returned \(ItemInspector.describe(options.cancellationDeadline)) after its task was cancelled; check Task.isCancelled between reads and end what it started"
            )
        } else if !endedBeforeCancellation, let end = completion.end, end - cancelledAt > options.cancellationDeadline {
            collector.add(
                "SRC-10",
                "run(into:) returned \(ItemInspector.describe(end - cancelledAt)) after its task was cancelled, more than \(ItemInspector.describe(options.cancellationDeadline))"
            )
        }
        checkSequence(record, into: &collector, requiresTerminal: false)
        return record
    }

    /// SRC-8: `started` first and once, one terminal event (or a throw), nothing after it.
    private static func checkSequence(
        _ record: RunRecord,
        into collector: inout ViolationCollector,
        requiresTerminal: Bool = true
    ) {
        let events = record.events
        let where_ = "(\(record.label))"
        if let first = events.first {
            if first != .started {
                collector.add("SRC-8", "the first event is \(name(of: first)), not started \(where_)")
            }
        } else if record.outcome != nil {
            collector.add("SRC-8", "run(into:) \(record.endDescription) without sending started \(where_)")
        }
        let startedCount = events.count { $0 == .started }
        if startedCount > 1 {
            collector.add("SRC-8", "started was sent \(startedCount) times \(where_)")
        }
        let terminalIndices = events.indices.filter { events[$0].isTerminal }
        if terminalIndices.count > 1 {
            let names = terminalIndices.map { name(of: events[$0]) }.joined(separator: ", ")
            collector.add("SRC-8", "\(terminalIndices.count) terminal events (\(names)); send exactly one \(where_)")
        }
        if let terminal = terminalIndices.first {
            let after = events[(terminal + 1)...].filter { !$0.isTerminal }
            if let next = after.first {
                collector.add(
                    "SRC-8",
                    "\(name(of: next)) came after the terminal event \(name(of: events[terminal])) \(where_)"
                )
            }
            if case .threw(let error, let isCancellation)? = record.outcome, !isCancellation {
                collector.add(
                    "SRC-8",
                    "run(into:) threw \(error) after its terminal event \(name(of: events[terminal])) \(where_)"
                )
            }
        } else if requiresTerminal, record.outcome == .returned {
            collector.add(
                "SRC-8",
                "run(into:) returned without a terminal event; send finished or failed (or throw) \(where_)"
            )
        }
    }

    /// SRC-9: what the fixture says the run should deliver, and no hang.
    private static func checkExpectation(
        _ record: RunRecord,
        fixture: ConformanceFixture,
        options: ConformanceOptions,
        into collector: inout ViolationCollector
    ) {
        guard record.outcome != nil else {
            collector.add(
                "SRC-9",
                "run(into:) had not ended after \(ItemInspector.describe(options.runTimeout)) (a hang) on \(fixture.expectation) input"
            )
            return
        }
        let items = record.items.count
        switch fixture.expectation {
        case .items:
            if record.endedInFailure || items == 0 {
                collector.add(
                    "SRC-9",
                    "well-formed input with items delivered \(items) items and \(record.endDescription); expected items, then finished"
                )
            }
        case .empty:
            if record.endedInFailure || items != 0 {
                collector.add(
                    "SRC-9",
                    "empty input delivered \(items) items and \(record.endDescription); expected zero items, then finished"
                )
            }
        case .malformed:
            if !record.endedInFailure, record.warningCount == 0 {
                collector.add(
                    "SRC-9",
                    "malformed input \(record.endDescription) with \(items) items and no warning; report it with failed or warnings"
                )
            }
        case .unreachable:
            if !record.endedInFailure {
                collector.add(
                    "SRC-9",
                    "unreachable input \(record.endDescription) with \(items) items; expected failed"
                )
            }
        }
    }

    /// SRC-2 (same ids) and SRC-4 (dates read, not taken from the clock) across two sequential runs.
    private static func compare(_ first: RunRecord, _ second: RunRecord, into collector: inout ViolationCollector) {
        guard first.outcome != nil, second.outcome != nil else { return }
        let firstIDs = first.items.map(\.id).sorted()
        let secondIDs = second.items.map(\.id).sorted()
        if firstIDs != secondIDs {
            let onlyFirst = Set(firstIDs).subtracting(secondIDs).sorted().prefix(3)
            let onlySecond = Set(secondIDs).subtracting(firstIDs).sorted().prefix(3)
            var detail =
                "two runs on the same input gave different ids (\(firstIDs.count) and \(secondIDs.count) items)"
            if !onlyFirst.isEmpty { detail += "; only in the first: \(onlyFirst.joined(separator: ", "))" }
            if !onlySecond.isEmpty { detail += "; only in the second: \(onlySecond.joined(separator: ", "))" }
            collector.add("SRC-2", detail + "; derive ids from the input, never from time, order or chance")
        }
        var firstByID: [String: FeedItem] = [:]
        for item in first.items where firstByID[item.id] == nil { firstByID[item.id] = item }
        let window = second.wallStart.addingTimeInterval(-1)...second.wallEnd.addingTimeInterval(1)
        for item in second.items {
            guard let earlier = firstByID[item.id] else { continue }
            for (field, old, new) in [
                ("date_published", earlier.datePublished, item.datePublished),
                ("date_modified", earlier.dateModified, item.dateModified),
            ] {
                guard let new, old != new else { continue }
                let reason =
                    window.contains(new)
                    ? "is the time of the run: an unknown date must be nil, never now"
                    : "changed between two runs on the same input"
                collector.add("SRC-4", "item \"\(item.id.prefix(80))\": \(field) \(reason)")
            }
        }
    }

    /// SRC-11: a run beside another delivers what a run on its own does.
    private static func checkConcurrent(
        _ record: RunRecord,
        against alone: RunRecord,
        stable: Bool,
        into collector: inout ViolationCollector
    ) {
        guard record.outcome != nil else {
            collector.add("SRC-11", "a run beside another instance did not end, while a run on its own did")
            return
        }
        let same =
            stable
            ? record.items == alone.items : record.items.map(\.id).sorted() == alone.items.map(\.id).sorted()
        if !same || record.endedInFailure != alone.endedInFailure {
            collector.add(
                "SRC-11",
                "two instances run side by side delivered \(record.items.count) items and \(record.endDescription), a run on its own \(alone.items.count) items and \(alone.endDescription): instances share state"
            )
        }
    }

    private static func name(of event: SourceEvent) -> String {
        switch event {
        case .started: "started"
        case .items(let items): "items(\(items.count))"
        case .warning(let warning): "warning(\(warning))"
        case .checkpoint(let checkpoint): "checkpoint(\(checkpoint.values.keys.sorted().joined(separator: ",")))"
        case .failed(let error): "failed(\(error))"
        case .finished: "finished"
        case .notModified: "notModified"
        }
    }
}

import Foundation
import Synchronization
import Testing

@testable import TributaryCore

/// A run that goes on deciding while the store writes (``PipelineSettings/overlapsSaves``, what one-shot digests
/// use) must end exactly where a run that waits for every write ends: the same items, outlines, statuses, stored
/// items, and the same events in the same order.
@Suite struct PipelineOverlapTests {
    /// Sources that take turns (each sends everything once the one before it has), so that both runs see their
    /// events in the same order.
    struct TakingTurns: Source {
        struct Options: Decodable, Sendable {}
        static let kind = "turns"
        static let documentation = SourceDocumentation(summary: "Test.", options: [], example: "{}")

        let id: SourceID
        let turn: Int
        let turns: Turns
        let events: [SourceEvent]

        init(id: SourceID, options: Options, context: SourceContext) throws {
            throw CancellationError()
        }

        init(_ id: SourceID, turn: Int, of turns: Turns, _ events: [SourceEvent]) {
            self.id = id
            self.turn = turn
            self.turns = turns
            self.events = events
        }

        func run(into sink: EventSink) async throws {
            while turns.current != turn { try await Task.sleep(for: .milliseconds(1)) }
            for event in events { await sink.send(event) }
            turns.next()
        }
    }

    final class Turns: Sendable {
        private let value = Mutex(0)
        var current: Int { value.withLock { $0 } }
        func next() { value.withLock { $0 += 1 } }
    }

    struct Outcome: Equatable {
        var events: [PipelineEvent]
        var items: [FeedItem]
        var outlines: [ItemOutline]
        var statuses: [SourceStatus]
        var stored: [StoredItem]
        /// The most batches one save wrote (slow store only).
        var largestWrite = 0
    }

    /// Runs the scenario: sources listed in one order, answering in another, with duplicates across sources, an
    /// update within the run, a copy that joins an item's `also_in` while the item's save is on its way, a cap over
    /// undated items seen in an earlier run, a filter, a dropped relative URL, a checkpoint and a source that did
    /// not change.
    func run(
        overlapping: Bool,
        holdsItems: Bool,
        slowStore: Bool = false,
        publishesItems: Bool = true
    ) async throws -> Outcome {
        let memory = InMemoryItemStore()
        let store: any ItemStore =
            slowStore
            ? WrappedStore(base: memory, beforeWrite: { try await Task.sleep(for: .milliseconds(30)) }) : memory
        let earlier = hoursFromNow(-30)
        // Seen in an earlier run: keeps its first-seen time, which places it under the cap.
        _ = await memory.save([makeItem("b-undated-old")], from: "b", at: earlier)
        _ = await memory.save([makeItem("c-1", published: hoursFromNow(-5))], from: "c", at: earlier)
        _ = try await memory.recordOutcome(.succeeded, for: "c", at: earlier)
        let turns = Turns()

        var shared = makeItem("a-shared", url: "https://example.org/shared", published: hoursFromNow(-1))
        shared.title = "Shared"
        var sharedCopy = makeItem("b-shared", url: "https://example.org/shared", published: hoursFromNow(-1))
        sharedCopy.title = "Shared copy"
        var relative = makeItem("b-relative", published: hoursFromNow(-2))
        relative.image = "/relative.png"
        var updated = makeItem("b-1", published: hoursFromNow(-3))
        updated.title = "Changed title"
        let sources: [PipelineSource] =
            [
                // Listed first, answers last: it takes the shared item over from "b".
                PipelineSource(
                    source: TakingTurns(
                        "a",
                        turn: 3,
                        of: turns,
                        [.started, .items([shared, makeItem("a-2", published: hoursFromNow(-4))]), .finished]
                    ),
                    kind: "turns"
                ),
                PipelineSource(
                    source: TakingTurns(
                        "b",
                        turn: 0,
                        of: turns,
                        [
                            .started,
                            .items([
                                makeItem("b-1", published: hoursFromNow(-3)), sharedCopy, makeItem("b-undated-old"),
                                makeItem("b-undated-new"),
                            ]),
                            .items([updated, relative, makeItem("b-ad", title: "An ad")]),
                            .finished,
                        ]
                    ),
                    kind: "turns",
                    exclude: ["ad"],
                    maxItems: 4
                ),
                PipelineSource(source: TakingTurns("c", turn: 2, of: turns, [.started, .notModified]), kind: "turns"),
                PipelineSource(
                    source: TakingTurns(
                        "d",
                        turn: 1,
                        of: turns,
                        // Its copy of b-1 joins b-1's `also_in` while b's last batch is still being saved.
                        [
                            .started, .items([makeItem("d-1", url: "https://example.org/b-1")]),
                            .checkpoint(SourceCheckpoint(["etag": "\"1\""])), .finished,
                        ]
                    ),
                    kind: "turns"
                ),
            ]
            // Three sources that answer one after the other while a save is on its way: with a slow store, their
            // batches queue up and are written together.
            + (4...6).map { turn in
                PipelineSource(
                    source: TakingTurns(
                        SourceID("e\(turn)"),
                        turn: turn,
                        of: turns,
                        [.started, .items([makeItem("e\(turn)-1", published: hoursFromNow(-Double(turn)))]), .finished]
                    ),
                    kind: "turns"
                )
            }
        var settings = fixedSettings()
        settings.overlapsSaves = overlapping
        settings.holdsItems = holdsItems
        settings.publishesItems = publishesItems
        let log = EventRecorder()
        let result = try await Pipeline(sources: sources, settings: settings, store: store)
            .run(onEvent: { log.record($0) })
        func timeless(_ status: SourceStatus) -> SourceStatus {
            var status = status
            status.duration = nil
            return status
        }
        let events = log.all.map { event -> PipelineEvent in
            if case .sourceStatusChanged(let status) = event { return .sourceStatusChanged(timeless(status)) }
            return event
        }
        #expect(try await store.checkpoint(for: "d") == SourceCheckpoint(["etag": "\"1\""]))
        return Outcome(
            events: events,
            items: result.items,
            outlines: result.outlines,
            statuses: result.statuses.map(timeless),
            stored: try await store.items(),
            largestWrite: (store as? WrappedStore)?.largestWrite.withLock { $0 } ?? 0
        )
    }

    /// With a slow store, batches queue up behind the one being written and are written together.
    @Test(arguments: [true, false], [false, true])
    func overlappingSavesEndsWhereWaitingForEachSaveEnds(holdsItems: Bool, slowStore: Bool) async throws {
        let waiting = try await run(overlapping: false, holdsItems: holdsItems)
        let overlapping = try await run(overlapping: true, holdsItems: holdsItems, slowStore: slowStore)
        if slowStore { #expect(overlapping.largestWrite > 1, "no batches were written together") }
        #expect(overlapping.outlines == waiting.outlines)
        #expect(overlapping.items == waiting.items)
        #expect(overlapping.statuses == waiting.statuses)
        #expect(overlapping.stored == waiting.stored)
        #expect(overlapping.events.count == waiting.events.count)
        for (index, (event, expected)) in zip(overlapping.events, waiting.events).enumerated() {
            #expect(event == expected, "event \(index)")
        }
        // The scenario did what it says, so the comparison is worth something.
        #expect(
            waiting.statuses.map(\.state) == [
                .succeeded, .succeeded, .notModified, .succeeded, .succeeded, .succeeded, .succeeded,
            ]
        )
        let kept = Set(waiting.outlines.map(\.id))
        #expect(kept.contains("a-shared") && !kept.contains("b-shared") && !kept.contains("b-ad"))
        #expect(waiting.outlines.first { $0.id == "a-shared" }?.alsoIn.map(\.id) == ["b-shared"])
        // The cap let go of the undated item an earlier run saw (its stored first-seen time makes it the oldest),
        // not of the one seen now.
        #expect(!kept.contains("b-undated-old") && kept.contains("b-undated-new"))
        #expect(waiting.events.contains { if case .itemsRemoved = $0 { true } else { false } })
        #expect(waiting.events.contains { if case .itemsUpdated = $0 { true } else { false } })
        #expect(waiting.events.contains { if case .warning = $0 { true } else { false } })
        #expect(waiting.outlines.first { $0.id == "b-1" }?.alsoIn.map(\.id) == ["d-1"])
        #expect(waiting.stored.contains { $0.item.id == "b-1" && $0.item.title == "Changed title" })
    }

    /// A run whose listener wants no items (``PipelineSettings/publishesItems`` `false`, as `digest`'s progress
    /// lines) ends where a run that publishes them ends, and publishes the same statuses and warnings in the same
    /// order: only the events that carry items are left out.
    @Test(arguments: [true, false], [false, true])
    func aRunThatPublishesNoItemsEndsWhereOneThatDoesEnds(holdsItems: Bool, slowStore: Bool) async throws {
        let publishing = try await run(overlapping: false, holdsItems: holdsItems)
        let silent = try await run(
            overlapping: true,
            holdsItems: holdsItems,
            slowStore: slowStore,
            publishesItems: false
        )
        #expect(silent.outlines == publishing.outlines)
        #expect(silent.items == publishing.items)
        #expect(silent.statuses == publishing.statuses)
        #expect(silent.stored == publishing.stored)
        func carriesItems(_ event: PipelineEvent) -> Bool {
            switch event {
            case .itemsAdded, .itemsUpdated, .itemsRemoved: true
            case .sourceStatusChanged, .warning: false
            }
        }
        #expect(!silent.events.contains(where: carriesItems))
        #expect(silent.events == publishing.events.filter { !carriesItems($0) })
        // The scenario publishes items of every kind, so leaving them out is seen.
        #expect(publishing.events.contains { if case .itemsAdded = $0 { true } else { false } })
        #expect(publishing.events.contains { if case .itemsUpdated = $0 { true } else { false } })
        #expect(publishing.events.contains { if case .itemsRemoved = $0 { true } else { false } })
        if holdsItems {
            // Held items carry the first-seen times the store gave them, whether or not events carry items.
            #expect(silent.items.allSatisfy { $0.tributary?.firstSeen != nil })
        }
    }

    /// A source's checkpoint is saved after the items it sent before it, without the router waiting for those saves:
    /// while the store is stuck writing one source's items, the router still takes the next source's batch.
    @Test func aCheckpointDoesNotMakeTheRouterWaitForTheStore() async throws {
        let gate = Gate()
        let store = WrappedStore(base: InMemoryItemStore(), beforeWrite: gate.wait)
        let turns = Turns()
        let sources = [
            PipelineSource(
                source: TakingTurns(
                    "a",
                    turn: 0,
                    of: turns,
                    [.started, .items([makeItem("a-1")]), .checkpoint(SourceCheckpoint(["etag": "\"a\""])), .finished]
                ),
                kind: "turns"
            ),
            // Its turn comes once a's events were all taken; its own are taken only if the router is not waiting.
            PipelineSource(
                source: TakingTurns("b", turn: 1, of: turns, [.started, .items([makeItem("b-1")]), .finished]),
                kind: "turns"
            ),
        ]
        var settings = fixedSettings()
        settings.overlapsSaves = true
        let run = Task { try await Pipeline(sources: sources, settings: settings, store: store).run() }
        let deadline = ContinuousClock.now + .seconds(10)
        while turns.current < 2, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
        #expect(turns.current == 2, "the router waited for the store at a's checkpoint instead of taking b's items")
        #expect(store.log.withLock { $0 }.isEmpty, "the store was to be stuck in its first save")
        gate.open()
        let result = try await run.value
        #expect(Set(result.outlines.map(\.id)) == ["a-1", "b-1"])
        #expect(try await store.checkpoint(for: "a") == SourceCheckpoint(["etag": "\"a\""]))
        // a's checkpoint was saved after a's item.
        let log = store.log.withLock { $0 }
        let item = try #require(log.firstIndex(of: "item a/a-1"))
        let checkpoint = try #require(log.firstIndex(of: "checkpoint a"))
        #expect(item < checkpoint, "\(log)")
    }

    /// A source answered "not modified" has its stored items read in its own task: while the store is stuck writing
    /// another source's items, the router still serves them and takes the next source's events; every event is
    /// published, in the order decided.
    @Test func notModifiedDoesNotMakeTheRouterWaitForTheStore() async throws {
        let memory = InMemoryItemStore()
        _ = await memory.save([makeItem("b-stored", published: hoursFromNow(-5))], from: "b", at: hoursFromNow(-30))
        _ = try await memory.recordOutcome(.succeeded, for: "b", at: hoursFromNow(-30))
        let gate = Gate()
        let store = WrappedStore(base: memory, beforeWrite: gate.wait)
        let turns = Turns()
        let sources = [
            PipelineSource(
                source: TakingTurns("a", turn: 0, of: turns, [.started, .items([makeItem("a-1")]), .finished]),
                kind: "turns"
            ),
            PipelineSource(source: TakingTurns("b", turn: 1, of: turns, [.started, .notModified]), kind: "turns"),
            PipelineSource(
                source: TakingTurns("c", turn: 2, of: turns, [.started, .items([makeItem("c-1")]), .finished]),
                kind: "turns"
            ),
        ]
        var settings = fixedSettings()
        settings.overlapsSaves = true
        let log = EventRecorder()
        let run = Task {
            try await Pipeline(sources: sources, settings: settings, store: store).run(onEvent: { log.record($0) })
        }
        let deadline = ContinuousClock.now + .seconds(10)
        while turns.current < 3, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
        #expect(turns.current == 3, "the router waited for the store at b's 'not modified'")
        gate.open()
        let result = try await run.value
        #expect(result.outlines.map(\.id).sorted() == ["a-1", "b-stored", "c-1"])
        #expect(result.statuses.map(\.state) == [.succeeded, .notModified, .succeeded])
        // Published in the order decided: a's item (once saved), then b's served one, then c's.
        let added = log.all.flatMap { event -> [String] in
            if case .itemsAdded(let items) = event { items.map(\.id) } else { [] }
        }
        #expect(added == ["a-1", "b-stored", "c-1"])
    }

    /// A gate that writes wait at until it is opened.
    final class Gate: Sendable {
        private let isOpen = Mutex(false)
        func open() { isOpen.withLock { $0 = true } }
        func wait() async throws {
            while !isOpen.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(1)) }
        }
    }

    /// An in-memory store whose writes first run `beforeWrite` (a delay, so that batches queue up behind a save; a
    /// gate), logging what they wrote in order and the most batches one save wrote.
    final class WrappedStore: ItemStore {
        let base: InMemoryItemStore
        let beforeWrite: @Sendable () async throws -> Void
        let log = Mutex<[String]>([])
        let largestWrite = Mutex(0)

        init(base: InMemoryItemStore, beforeWrite: @escaping @Sendable () async throws -> Void) {
            self.base = base
            self.beforeWrite = beforeWrite
        }

        func save(_ items: [FeedItem], from source: SourceID, at date: Date) async throws -> StoreChanges {
            try await save([SaveBatch(source: source, items: items, date: date)])[0]
        }
        func save(_ batches: [SaveBatch]) async throws -> [StoreChanges] {
            try await beforeWrite()
            largestWrite.withLock { $0 = max($0, batches.count) }
            var changes: [StoreChanges] = []
            for batch in batches {
                log.withLock { $0 += batch.items.map { "item \(batch.source)/\($0.id)" } }
                changes.append(await base.save(batch.items, from: batch.source, at: batch.date))
            }
            return changes
        }
        func items() async throws -> [StoredItem] { await base.items() }
        func items(_ keys: [ItemKey]) async throws -> [StoredItem] { try await base.items(keys) }
        func currentItems(from source: SourceID) async throws -> [StoredItem] {
            await base.currentItems(from: source)
        }
        func checkpoint(for source: SourceID) async throws -> SourceCheckpoint { await base.checkpoint(for: source) }
        func saveCheckpoint(_ checkpoint: SourceCheckpoint, for source: SourceID) async throws {
            try await beforeWrite()
            log.withLock { $0.append("checkpoint \(source)") }
            await base.saveCheckpoint(checkpoint, for: source)
        }
        func lastDigestDate() async throws -> Date? { await base.lastDigestDate() }
        func recordDigest(at date: Date) async throws { await base.recordDigest(at: date) }
    }
}

import Foundation
import HeapModule
import Logging
import OrderedCollections

/// The single consumer of a ``Pipeline`` run's event stream: all state of a run lives here, touched by one task.
struct PipelineRouter {
    /// What flows through the pipeline's stream.
    enum Input: Sendable {
        /// An event a source sent through its sink (its items come as ``items(_:_:)``).
        case event(Int, SourceEvent)
        /// A batch of items a source sent, already through its ``ItemIntake`` (in the source's own task).
        case items(Int, ItemIntake.Batch)
        /// A source's `notModified`, with the stored items it serves already read and filtered in the source's own
        /// task (``Served``), so that the router does not wait for the store for each of them.
        case notModified(Int, Served)
        /// The source's task ended; sent after every event of that source.
        case ended(Int, Outcome)
    }

    /// How a source's task ended.
    enum Outcome: Sendable {
        case returned
        case threw(any Error)
        case timedOut(Duration)
        case cancelled
    }

    /// The stored items a `notModified` serves, read in the source's task: filtered, with their first-seen times by id.
    struct Served: Sendable {
        var items: [FeedItem]
        var firstSeen: [String: Date]

        init(_ stored: [StoredItem], intake: ItemIntake) {
            items = intake.takeStored(stored.map(\.item))
            firstSeen = Dictionary(stored.map { ($0.item.id, $0.firstSeen) }, uniquingKeysWith: { a, _ in a })
        }
    }

    typealias Key = Deduplicator.Key
    /// A kept item as the router holds it: its outline and its place in the digest order.
    typealias Kept = ItemOrdering.Entry
    typealias Publish = @Sendable (PipelineEvent) async -> Void

    private let sources: [PipelineSource]
    private let settings: PipelineSettings
    private let store: any ItemStore
    private let logger: Logger
    /// Each source's intake (normalise, filter), by index.
    let intakes: [ItemIntake]
    private let clock = ContinuousClock()
    private let startedAt: ContinuousClock.Instant

    private var statuses: [SourceStatus]
    private var terminated: [Bool]
    private var deduplicator = Deduplicator()
    /// Every kept item's outline and place: a few dozen bytes an item, whatever its content.
    private var entries: KeptItems
    /// The kept items whole: all of them when the run holds its items (``PipelineSettings/holdsItems``), otherwise
    /// only the current batch's, until the store has them.
    private var held: [Key: FeedItem] = [:]
    private var keptCounts: [Int]
    private var arrivalCounters: [Int]
    /// Items of each source left out by its cap (`maxItems`, `maxItemsPerSource` or the default), for the warning.
    private var cappedCounts: [Int]
    /// Where each source's kept items stand in the digest order, for its cap (``oldestKept(by:)``).
    private var capPlaces: [Heap<CapPlace>]
    /// The saves on their way (``PipelineSettings/overlapsSaves``): the group of batches the store is writing, the
    /// batches queued behind it (written together once it is done), and the events decided since the first of
    /// them, which wait to be published in order.
    private var writing: SaveGroup?
    private var queued: [SaveJob] = []
    private var waiting: [Waiting] = []
    private var nextJob = 0
    /// How many saves on their way hold each key: a run that holds only outlines lets go of an item once none does.
    private var keysOnTheirWay: [Key: Int] = [:]
    /// Queued items beyond which the router waits for the store rather than deciding further ahead.
    static let queueLimit = 2_000
    /// Ends the run's stream of inputs: what a save on its way calls when it fails, so that the run ends with the
    /// store's error at once rather than when the next batch comes.
    var interrupt: @Sendable () -> Void = {}
    /// Sources ended by their timeout or the run's cancellation rather than by themselves.
    private var stoppedByTheRun: [Bool]
    /// Warnings of each source beyond ``warningLimit``, counted instead of kept.
    private var unreportedWarnings: [Int]
    /// Warnings kept per source: a hostile source (169,092 warnings from one push server) must not fill the
    /// terminal, the digest and memory; the rest are counted and summed up in one last warning.
    static let warningLimit = 100

    init(sources: [PipelineSource], settings: PipelineSettings, store: any ItemStore, logger: Logger) {
        self.sources = sources
        self.settings = settings
        self.store = store
        self.logger = logger
        let globalFilter = KeywordFilter(include: settings.include, exclude: settings.exclude)
        intakes = sources.map { ItemIntake(source: $0, settings: settings, globalFilter: globalFilter) }
        startedAt = clock.now
        statuses = sources.map { SourceStatus(sourceID: $0.id, kind: $0.kind, title: $0.title) }
        terminated = Array(repeating: false, count: sources.count)
        keptCounts = Array(repeating: 0, count: sources.count)
        arrivalCounters = Array(repeating: 0, count: sources.count)
        cappedCounts = Array(repeating: 0, count: sources.count)
        unreportedWarnings = Array(repeating: 0, count: sources.count)
        stoppedByTheRun = Array(repeating: false, count: sources.count)
        capPlaces = Array(repeating: Heap(), count: sources.count)
        entries = KeptItems(sourceIDs: sources.map(\.id))
    }

    /// The run's outcome: kept items in digest order and every status. Called once, at the end: the held items are
    /// moved out rather than copied (50,000 copies, then 50,000 frees with the router, were a tenth of a second on
    /// one core at the end of a 1,000-feed run).
    mutating func result() -> PipelineResult {
        let outlines = entries.takeOutlinesInDigestOrder()
        var items: [FeedItem] = []
        if settings.holdsItems {
            items.reserveCapacity(outlines.count)
            for outline in outlines { items.append(held.removeValue(forKey: outline.key) ?? outline.placeholder) }
        }
        return PipelineResult(items: items, outlines: outlines, statuses: statuses)
    }

    /// Handles one input: updates the run's state, writes to the store, publishes what changed.
    mutating func handle(_ input: Input, publish: Publish) async throws {
        switch input {
        case .event(let index, let event):
            try await handle(event, from: index, taken: nil, publish: publish)
        case .items(let index, let batch):
            try await handle(.items(batch.items), from: index, taken: batch, publish: publish)
        case .notModified(let index, let served):
            try await handle(.notModified, from: index, taken: nil, served: served, publish: publish)
        case .ended(let index, let outcome):
            await end(index, outcome: outcome, publish: publish)
        }
    }

    // MARK: - Private

    /// Handles one event; `taken` is the batch's intake when the event is `.items`, `served` the stored items
    /// already read when it is `.notModified`.
    private mutating func handle(
        _ event: SourceEvent,
        from index: Int,
        taken: ItemIntake.Batch?,
        served: Served? = nil,
        publish: Publish
    ) async throws {
        if terminated[index] {
            // A source that ran out of time may still have had an event on its way when it was ended: dropped.
            if stoppedByTheRun[index] {
                logger.debug(
                    "dropped an event of a source that was stopped",
                    metadata: ["source": "\(sources[index].id)"]
                )
                return
            }
            await warn(index, "ignored \(Self.name(of: event)) after the source's terminal event (SRC-8)", publish)
            return
        }
        switch event {
        case .started:
            if statuses[index].state == .running {
                await warn(index, "ignored a second 'started' event (SRC-8)", publish)
            } else {
                statuses[index].state = .running
                await emit(.sourceStatusChanged(statuses[index]), publish)
            }
        case .items(let items):
            await ensureRunning(index, before: event, publish)
            let batch = taken ?? intakes[index].take(items)
            for warning in batch.warnings { await warn(index, warning, publish) }
            try await receive(batch.items, from: index, publish: publish)
        case .warning(let warning):
            await ensureRunning(index, before: event, publish)
            await warn(index, warning, publish)
        case .checkpoint(let checkpoint):
            await ensureRunning(index, before: event, publish)
            try await queue(checkpoint, from: index, publish: publish)
        case .failed(let error):
            await finish(index, state: .failed(error), publish: publish)
        case .finished:
            await finish(index, state: .succeeded, publish: publish)
        case .notModified:
            await ensureRunning(index, before: event, publish)
            // The stored items were normalised and saved when they arrived: they are served as they are, neither
            // normalised nor written again (a warm run costs little more than its HTTP round trips). Read in the
            // source's task when it sent no items before (``Served``); otherwise here, once the saves of its items
            // are done.
            let serving: Served
            if let served {
                serving = served
            } else {
                try await finishSaves(publish: publish)
                serving = Served(try await store.currentItems(from: sources[index].id), intake: intakes[index])
            }
            if !serving.items.isEmpty {
                try await receive(serving.items, from: index, publish: publish, storedFirstSeen: serving.firstSeen)
            }
            await finish(index, state: .notModified, publish: publish)
        }
    }

    private mutating func end(_ index: Int, outcome: Outcome, publish: Publish) async {
        let id = sources[index].id
        if terminated[index] {
            if case .threw(let error) = outcome {
                logger.debug(
                    "source threw after its terminal event",
                    metadata: ["source": "\(id)", "error": "\(error)"]
                )
            }
            return
        }
        switch outcome {
        case .returned:
            await warn(index, "source ended without finishing (SRC-8)", publish)
            await finish(index, state: .succeeded, publish: publish)
        case .threw(let error):
            let sourceError =
                (error as? SourceError)
                ?? SourceError(sourceID: id, reason: .other(String(describing: error)), underlying: error)
            await finish(index, state: .failed(sourceError), publish: publish)
        case .timedOut(let duration):
            stoppedByTheRun[index] = true
            logger.info("source timed out", metadata: ["source": "\(id)", "timeout": "\(duration)"])
            await finish(
                index,
                state: .failed(SourceError(sourceID: id, reason: .timedOut(after: duration))),
                publish: publish
            )
        case .cancelled:
            stoppedByTheRun[index] = true
            await finish(
                index,
                state: .failed(SourceError(sourceID: id, reason: .other("cancelled"))),
                publish: publish
            )
        }
    }

    private mutating func ensureRunning(_ index: Int, before event: SourceEvent, _ publish: Publish) async {
        guard statuses[index].state == .pending else { return }
        statuses[index].state = .running
        await warn(index, "sent \(Self.name(of: event)) before 'started' (SRC-8)", publish)
    }

    private mutating func finish(_ index: Int, state: SourceStatus.State, publish: Publish) async {
        if cappedCounts[index] > 0, let cap = sources[index].maxItems ?? settings.maxItemsPerSource {
            let key =
                sources[index].maxItems == nil ? "\"maxItemsPerSource\" in feeds.json" : "this source's \"maxItems\""
            await warn(
                index,
                "kept the newest \(cap) items; \(cappedCounts[index]) older ones were left out (raise \(key) to keep more)",
                publish
            )
        }
        if unreportedWarnings[index] > 0 {
            let count = unreportedWarnings[index]
            unreportedWarnings[index] = 0
            statuses[index].warnings.append(
                SourceWarning("\(count) more warnings like these were not shown (the first \(Self.warningLimit) were)")
            )
            await emit(
                .warning(sources[index].id, statuses[index].warnings[statuses[index].warnings.count - 1]),
                publish
            )
        }
        terminated[index] = true
        statuses[index].state = state
        statuses[index].duration = clock.now - startedAt
        await emit(.sourceStatusChanged(statuses[index]), publish)
    }

    private mutating func warn(_ index: Int, _ message: String, _ publish: Publish) async {
        await warn(index, SourceWarning(message), publish)
    }

    private mutating func warn(_ index: Int, _ warning: SourceWarning, _ publish: Publish) async {
        guard statuses[index].warnings.count < Self.warningLimit else {
            unreportedWarnings[index] += 1
            return
        }
        statuses[index].warnings.append(warning)
        await emit(.warning(sources[index].id, warning), publish)
        await emit(.sourceStatusChanged(statuses[index]), publish)
    }

    /// One batch of items the source's ``ItemIntake`` took (normalised and filtered): deduplicate, cap, save,
    /// publish. Items served from the store (`storedFirstSeen`, their first-seen times by id) are not saved again:
    /// they were saved when they arrived.
    private mutating func receive(
        _ candidates: [FeedItem],
        from index: Int,
        publish: Publish,
        storedFirstSeen: [String: Date]? = nil
    ) async throws {
        let source = sources[index]
        let now = settings.now()
        // A source's batches are decided one after the other as in a run without overlap: its cap compares
        // first-seen times the store gives back.
        if writing?.sources.contains(source.id) == true || queued.contains(where: { $0.sources.contains(source.id) }) {
            try await finishSaves(publish: publish)
        }

        var batch = Batch()
        for item in candidates {
            let now = storedFirstSeen?[item.id] ?? now
            switch deduplicator.classify(item, from: source.id) {
            case .new:
                keep(item, from: index, now: now, batch: &batch)
            case .update:
                let key = Key(source: source.id, id: item.id)
                guard var entry = entry(of: key) else { continue }
                var updated = item
                updated.tributary?.alsoIn = entry.outline.alsoIn
                updated.tributary?.firstSeen = entry.outline.firstSeen
                // Without the item whole (the store has it), the store tells whether it changed.
                if let previous = held[key], updated == previous { continue }
                held[key] = updated
                entry.outline = ItemOutline(updated, key: key)
                setEntry(entry, for: key)
                batch.markUpdated(key)
            case .duplicate(let owner):
                guard let slot = deduplicator.slot(of: owner), var entry = entries[slot] else { continue }
                if index < entry.sourceIndex, canKeep(item, from: index, now: now) {
                    // The source listed first in feeds.json keeps the item, so a digest does not depend on which
                    // source happened to answer first.
                    promote(item, from: index, over: owner, now: now, batch: &batch)
                    continue
                }
                let reference = TributaryExtension.ItemReference(source: source.id, id: item.id, url: item.url)
                guard !entry.outline.alsoIn.contains(reference) else { continue }
                entry.outline.alsoIn.append(reference)
                entries[slot] = entry
                if var whole = held[owner] {
                    var tributary = whole.tributary ?? TributaryExtension()
                    tributary.alsoIn = entry.outline.alsoIn
                    whole.tributary = tributary
                    held[owner] = whole
                }
                batch.markUpdated(owner)
            }
        }

        let previousCount = statuses[index].itemCount
        statuses[index].itemCount = keptCounts[index]
        var notice = Notice(added: Array(batch.added), updated: Array(batch.updated), removed: batch.removed)
        if statuses[index].itemCount != previousCount { notice.statuses.append(statuses[index]) }
        for other in batch.touchedSources.sorted() where other != index { notice.statuses.append(statuses[other]) }
        if storedFirstSeen == nil {
            let job = makeJob(batch, at: now)
            queued.append(job)
            for key in job.keys { keysOnTheirWay[key, default: 0] += 1 }
            // Published once the store has the batch, in its place among the events.
            waiting.append(.notice(notice, job: job.number, keys: job.keys))
            if settings.overlapsSaves {
                try await advanceSaves(publish: publish)
            } else {
                try await finishSaves(publish: publish)
            }
        } else {
            // Served from the store: published now, or after the events decided before it while saves are on
            // their way.
            for event in events(of: notice, saved: [:]) { await emit(event, publish) }
        }
        // Nothing the store has yet to write is held any more: a run that reads its digest back from the store
        // keeps only outlines.
        if !settings.holdsItems, writing == nil, queued.isEmpty { held.removeAll(keepingCapacity: true) }
    }

    /// Saves a source's checkpoint after the items it sent before it: queued behind their saves and written with
    /// them, so that the router goes on deciding meanwhile (waiting for the store at every source's checkpoint made
    /// a cold run of 1,000 feeds wait for it 1,000 times).
    private mutating func queue(_ checkpoint: SourceCheckpoint, from index: Int, publish: Publish) async throws {
        queued.append(
            SaveJob(
                number: nextJob,
                date: settings.now(),
                parts: [],
                keys: [],
                sources: [],
                checkpoints: [(sources[index].id, checkpoint)]
            )
        )
        nextJob += 1
        if settings.overlapsSaves {
            try await advanceSaves(publish: publish)
        } else {
            try await finishSaves(publish: publish)
        }
    }

    /// Publishes a batch's notice: its items as the store saved them (stamped with their stored first-seen times),
    /// else as the run holds them.
    private func announce(_ notice: Notice, saved: [Key: FeedItem], _ publish: Publish) async {
        for event in events(of: notice, saved: saved) { await publish(event) }
    }

    /// The events of a batch's notice, in order: its items as the store saved them, else as the run holds them.
    private func events(of notice: Notice, saved: [Key: FeedItem]) -> [PipelineEvent] {
        func item(_ key: Key) -> FeedItem? { saved[key] ?? held[key] ?? entry(of: key)?.outline.placeholder }
        var events: [PipelineEvent] = []
        if settings.publishesItems {
            let added = notice.added.compactMap(item)
            let updated = notice.updated.compactMap(item)
            if !added.isEmpty { events.append(.itemsAdded(added)) }
            if !updated.isEmpty { events.append(.itemsUpdated(updated)) }
            if !notice.removed.isEmpty { events.append(.itemsRemoved(notice.removed)) }
        }
        for status in notice.statuses { events.append(.sourceStatusChanged(status)) }
        return events
    }

    /// Publishes `event` now, or after the batches whose saves are on their way, keeping the order events were
    /// decided in.
    private mutating func emit(_ event: PipelineEvent, _ publish: Publish) async {
        if writing == nil, queued.isEmpty {
            await publish(event)
        } else {
            waiting.append(.event(event))
        }
    }

    /// Starts writing the queued batches when the store is free; waits for it only when the queue is long.
    private mutating func advanceSaves(publish: Publish) async throws {
        if let group = writing {
            guard group.done.value || queued.reduce(0, { $0 + $1.keys.count }) > Self.queueLimit else { return }
            try await finishWriting(publish: publish)
        }
        startWriting()
    }

    /// Waits until the store has every batch (``PipelineSettings/overlapsSaves``), takes the stored first-seen
    /// times and publishes what waited. Every read or write of the store that must follow a batch comes after this.
    mutating func finishSaves(publish: Publish) async throws {
        while writing != nil || !queued.isEmpty {
            try await finishWriting(publish: publish)
            if settings.overlapsSaves {
                startWriting()
            } else if let last = queued.last {
                // Written in this task: cancelling the run cancels the write, as it always did.
                let jobs = queued
                queued.removeAll()
                try await publishWritten(try await SaveJob.write(jobs, in: store), upTo: last.number, publish)
            }
        }
    }

    /// Hands every queued batch to the store, to be written together, if it is not writing.
    private mutating func startWriting() {
        guard writing == nil, let last = queued.last else { return }
        let jobs = queued
        queued.removeAll()
        let store = store
        let interrupt = interrupt
        let done = LockedValue(false)
        writing = SaveGroup(
            task: Task {
                defer { done.withLock { $0 = true } }
                do {
                    return try await SaveJob.write(jobs, in: store)
                } catch {
                    interrupt()
                    throw error
                }
            },
            done: done,
            last: last.number,
            sources: jobs.reduce(into: Set()) { $0.formUnion($1.sources) }
        )
    }

    /// Waits for the group the store is writing, takes what it saved, and publishes the events that waited for it
    /// (up to the first batch still queued).
    private mutating func finishWriting(publish: Publish) async throws {
        guard let group = writing else { return }
        writing = nil
        // Cancelling the run cancels the write it waits for.
        let written = try await withTaskCancellationHandler {
            try await group.task.value
        } onCancel: {
            group.task.cancel()
        }
        try await publishWritten(written, upTo: group.last, publish)
    }

    /// Takes what the store wrote and publishes the events that waited for it, up to the first batch after `last`.
    private mutating func publishWritten(
        _ written: [(Int, [(SourceID, StoreChanges)])],
        upTo last: Int,
        _ publish: Publish
    ) async throws {
        var savedByJob: [Int: [Key: FeedItem]] = [:]
        for (number, saved) in written { savedByJob[number] = take(saved) }
        var published = 0
        publishing: for event in waiting {
            switch event {
            case .event(let event):
                await publish(event)
            case .notice(let notice, let number, let keys):
                guard number <= last else { break publishing }
                await announce(notice, saved: savedByJob[number] ?? [:], publish)
                for key in keys {
                    let count = (keysOnTheirWay[key] ?? 1) - 1
                    keysOnTheirWay[key] = count > 0 ? count : nil
                    if count <= 0, !settings.holdsItems { held[key] = nil }
                }
            }
            published += 1
        }
        waiting.removeFirst(published)
    }

    /// Stops the saves on their way, when the run ends early (cancelled, or a store error), so that none outlives
    /// the run.
    mutating func abandonSaves() async {
        queued.removeAll()
        waiting.removeAll()
        guard let group = writing else { return }
        writing = nil
        group.task.cancel()
        _ = try? await group.task.value
    }

    /// Whether ``keep(_:from:now:batch:)`` would keep the item under its source's `maxItems`.
    private mutating func canKeep(_ item: FeedItem, from index: Int, now: Date) -> Bool {
        guard let cap = sources[index].maxItems ?? settings.maxItemsPerSource, keptCounts[index] >= cap else {
            return true
        }
        let entry = Kept(
            outline: ItemOutline(item, key: Key(source: sources[index].id, id: item.id)),
            firstSeen: now,
            sourceIndex: index,
            arrivalIndex: arrivalCounters[index]
        )
        return cap > 0 && oldestKept(by: index).map { entry.position < $0.entry.position } == true
    }

    /// Keeps `item` in place of `owner`, another source's copy of it, moving the owner and the sources it recorded
    /// into the item's `also_in`.
    private mutating func promote(_ item: FeedItem, from index: Int, over owner: Key, now: Date, batch: inout Batch) {
        guard let ownerSlot = deduplicator.slot(of: owner), let displaced = entries[ownerSlot] else { return }
        let key = Key(source: sources[index].id, id: item.id)
        var promoted = item
        var tributary = promoted.tributary ?? TributaryExtension()
        let references =
            [TributaryExtension.ItemReference(source: owner.source, id: owner.id, url: displaced.outline.url)]
            + displaced.outline.alsoIn
        for reference in references
        where (reference.source, reference.id) != (key.source, key.id) && !tributary.alsoIn.contains(reference) {
            tributary.alsoIn.append(reference)
        }
        promoted.tributary = tributary

        entries[ownerSlot] = nil
        keptCounts[displaced.sourceIndex] -= 1
        batch.evict(owner, item: held.removeValue(forKey: owner) ?? displaced.outline.placeholder)
        deduplicator.transfer(owner, to: key)
        statuses[displaced.sourceIndex].itemCount = keptCounts[displaced.sourceIndex]
        batch.touchedSources.insert(displaced.sourceIndex)
        keep(promoted, from: index, now: now, batch: &batch)
    }

    /// Keeps a new item, first making room under the source's `maxItems` when it is newer than the oldest kept.
    private mutating func keep(_ item: FeedItem, from index: Int, now: Date, batch: inout Batch) {
        let key = Key(source: sources[index].id, id: item.id)
        let entry = Kept(
            outline: ItemOutline(item, key: key),
            firstSeen: now,
            sourceIndex: index,
            arrivalIndex: arrivalCounters[index]
        )
        arrivalCounters[index] += 1
        if let cap = sources[index].maxItems ?? settings.maxItemsPerSource, keptCounts[index] >= cap {
            cappedCounts[index] += 1
            guard cap > 0, let (oldestKey, oldestSlot, oldest) = oldestKept(by: index), entry.position < oldest.position
            else {
                deduplicator.forget(key)
                return
            }
            entries[oldestSlot] = nil
            keptCounts[index] -= 1
            deduplicator.forget(oldestKey)
            batch.evict(oldestKey, item: held.removeValue(forKey: oldestKey) ?? oldest.outline.placeholder)
        }
        held[key] = item
        setEntry(entry, for: key)
        keptCounts[index] += 1
        batch.markAdded(key)
    }

    /// Stores an entry, and when it is new or its place in the digest order changed, records that place for the
    /// source's cap.
    private mutating func setEntry(_ entry: Kept, for key: Key) {
        guard let slot = deduplicator.slot(of: key) else { return }
        let previous = entries[slot]
        entries[slot] = entry
        if previous?.position != entry.position {
            capPlaces[entry.sourceIndex].insert(CapPlace(slot: slot, entry: entry))
        }
    }

    /// The entry of a kept item.
    private func entry(of key: Key) -> Kept? {
        deduplicator.slot(of: key).flatMap { entries[$0] }
    }

    /// The kept item of a source that comes last in the digest order: the one a cap lets go first. Places recorded
    /// before an item changed or left are dropped as they come up, so each lookup costs a logarithm, not a scan of
    /// every kept item (which made a flood of 680,000 items quadratic).
    private mutating func oldestKept(by index: Int) -> (key: Key, slot: Int, entry: Kept)? {
        while let place = capPlaces[index].max {
            // A slot let go may hold another item since; the place is still this one's only if the position is the
            // same (a position names its source and arrival, which no other item has).
            if let entry = entries[Int(place.slot)], entry.sourceIndex == index, place.isPlace(of: entry) {
                return (entry.outline.key, Int(place.slot), entry)
            }
            capPlaces[index].removeMax()
        }
        return nil
    }

    /// The writes of a batch's new and changed items, one part per source, numbered in the order batches come.
    private mutating func makeJob(_ batch: Batch, at now: Date) -> SaveJob {
        var sourceOrder: [SourceID] = []
        for key in batch.toSave where !sourceOrder.contains(key.source) { sourceOrder.append(key.source) }
        var job = SaveJob(
            number: nextJob,
            date: now,
            parts: [],
            keys: Array(batch.toSave),
            sources: Set(sourceOrder),
            checkpoints: []
        )
        nextJob += 1
        for sourceID in sourceOrder {
            // An item saved earlier in the run and changed since (another source's copy joined its `also_in`) is
            // read back from the store when the run does not hold it (the store has it: an item is let go of only
            // once no save on its way holds it).
            let keys = batch.toSave.filter { $0.source == sourceID }
            job.parts.append(
                (
                    sourceID,
                    keys.compactMap { key in
                        if let item = held[key] { return .item(item) }
                        return entry(of: key).map { .stored($0.outline) }
                    }
                )
            )
        }
        return job
    }

    /// Takes what the store says of saved items: their first-seen times (an item an earlier run saw keeps its
    /// own). Only that: the run's own state of an item may be newer than what was saved (a later batch added to
    /// its `also_in`).
    /// - Returns: the saved items by key, as the store saved them; none when the run's events carry no items and
    ///   the run does not hold them (``PipelineSettings/publishesItems``, ``PipelineSettings/holdsItems``).
    private mutating func take(_ saved: [(SourceID, StoreChanges)]) -> [Key: FeedItem] {
        let keepsTaken = settings.publishesItems || settings.holdsItems
        var items: [Key: FeedItem] = [:]
        for (sourceID, changes) in saved {
            for stored in changes.all {
                let key = Key(source: sourceID, id: stored.item.id)
                if settings.publishesItems { items[key] = stored.item }
                guard var entry = entry(of: key) else { continue }
                entry.outline.firstSeen = stored.firstSeen
                entry.firstSeen = stored.firstSeen
                setEntry(entry, for: key)
                // An item read back from the store is held until its batch is published.
                if keepsTaken {
                    held[key] =
                        held[key].map { StoredItem.stamped($0, firstSeen: stored.firstSeen) }
                        ?? entry.outline.completing(stored.item)
                }
            }
        }
        return items
    }

    private static func name(of event: SourceEvent) -> String {
        switch event {
        case .started: "'started'"
        case .items: "items"
        case .warning: "a warning"
        case .checkpoint: "a checkpoint"
        case .failed: "'failed'"
        case .finished: "'finished'"
        case .notModified: "'notModified'"
        }
    }

}

/// Batches the store is writing together.
private struct SaveGroup {
    let task: Task<[(Int, [(SourceID, StoreChanges)])], any Error>
    /// True once the store is done (or failed).
    let done: LockedValue<Bool>
    /// The number of the last batch in the group.
    let last: Int
    /// The sources of the group's items.
    let sources: Set<SourceID>
}

/// An event that waits for saves on their way.
private enum Waiting {
    case event(PipelineEvent)
    /// A batch's notice: the batch's number and the keys its save writes.
    case notice(Notice, job: Int, keys: [ItemKey])
}

/// What a batch publishes: the keys of its added and updated items (published as the items are once saved), the
/// items a cap removed, and the statuses it changed, as they were after the batch.
private struct Notice {
    var added: [ItemKey]
    var updated: [ItemKey]
    var removed: [FeedItem]
    var statuses: [SourceStatus] = []
}

/// The writes of one batch, in order: for each source, its items whole, or as outlines to complete with what the
/// store holds (an item the run no longer holds whole); or the checkpoints sources sent after their items.
private struct SaveJob: Sendable {
    enum Part: Sendable {
        case item(FeedItem)
        case stored(ItemOutline)
    }

    let number: Int
    let date: Date
    var parts: [(SourceID, [Part])]
    /// The keys it writes.
    let keys: [ItemKey]
    /// The sources of those keys.
    let sources: Set<SourceID>
    /// Checkpoints to save once the items of this job and of the jobs before it are saved.
    let checkpoints: [(source: SourceID, checkpoint: SourceCheckpoint)]

    /// Writes `jobs` in order, in one ``ItemStore/save(_:)``, then their checkpoints in one
    /// ``ItemStore/saveCheckpoints(_:)`` (a checkpoint comes after the items sent before it; the items of later jobs
    /// saved before it do no harm); returns what each job's parts saved, by job number.
    static func write(_ jobs: [SaveJob], in store: any ItemStore) async throws -> [(Int, [(SourceID, StoreChanges)])] {
        var batches: [SaveBatch] = []
        var owners: [Int] = []
        for (index, job) in jobs.enumerated() {
            for (sourceID, items) in job.parts {
                var outlines: [ItemKey: ItemOutline] = [:]
                for case .stored(let outline) in items { outlines[outline.key] = outline }
                var reread: [ItemKey: FeedItem] = [:]
                if !outlines.isEmpty {
                    for stored in try await store.items(Array(outlines.keys)) {
                        let key = ItemKey(source: stored.sourceID, id: stored.item.id)
                        if let outline = outlines[key] { reread[key] = outline.completing(stored.item) }
                    }
                }
                let whole: [FeedItem] = items.compactMap { part in
                    switch part {
                    case .item(let item): item
                    case .stored(let outline): reread[outline.key]
                    }
                }
                batches.append(SaveBatch(source: sourceID, items: whole, date: job.date))
                owners.append(index)
            }
        }
        let changes = batches.isEmpty ? [] : try await store.save(batches)
        var saved = jobs.map { ($0.number, [(SourceID, StoreChanges)]()) }
        for (position, change) in changes.enumerated() {
            saved[owners[position]].1.append((batches[position].source, change))
        }
        let checkpoints = jobs.flatMap(\.checkpoints)
        if !checkpoints.isEmpty { try await store.saveCheckpoints(checkpoints) }
        return saved
    }
}

/// What one batch of items changed, in arrival order.
private struct Batch {
    typealias Key = Deduplicator.Key

    /// Keys kept for the first time in this batch.
    var added: OrderedSet<Key> = []
    /// Keys kept before this batch that changed.
    var updated: OrderedSet<Key> = []
    /// Items evicted by a `maxItems` cap that were published before this batch.
    var removed: [FeedItem] = []
    /// Keys to write to the store, each once.
    var toSave: OrderedSet<Key> = []
    /// Other sources whose item counts changed (their item was displaced by an earlier-listed source's copy).
    var touchedSources: Set<Int> = []

    mutating func markAdded(_ key: Key) {
        added.append(key)
        toSave.append(key)
    }

    mutating func markUpdated(_ key: Key) {
        if !added.contains(key) { updated.append(key) }
        toSave.append(key)
    }

    mutating func evict(_ key: Key, item: FeedItem) {
        toSave.remove(key)
        if added.remove(key) == nil {
            updated.remove(key)
            removed.append(item)
        }
    }
}

/// An item's place in the digest order, as a source's cap compares them: the greatest is the item the digest shows
/// last (the oldest). Each source has its own heap of them, so the place leaves out the source and names the item by
/// its slot (``Deduplicator/slot(of:)``): 16 bytes a kept item.
private struct CapPlace: Comparable {
    let slot: Int32
    let arrivalIndex: Int32
    let sortDate: Date

    init(slot: Int, entry: ItemOrdering.Entry) {
        self.slot = Int32(slot)
        arrivalIndex = Int32(clamping: entry.arrivalIndex)
        sortDate = entry.sortDate
    }

    /// Whether this is the place of `entry`, an entry of the heap's source: a position names its source and arrival,
    /// which no other item has.
    func isPlace(of entry: ItemOrdering.Entry) -> Bool {
        entry.sortDate == sortDate && Int32(clamping: entry.arrivalIndex) == arrivalIndex
    }

    static func < (lhs: CapPlace, rhs: CapPlace) -> Bool {
        if lhs.sortDate != rhs.sortDate { return lhs.sortDate > rhs.sortDate }
        return lhs.arrivalIndex < rhs.arrivalIndex
    }
}

/// The kept items' entries side by side in one array, by their slot in the run's ``Deduplicator`` (which hands
/// slots out and reuses those of items let go): a table of the entries by key would reserve room for up to twice as
/// many entries as it holds, and a second table from key to slot would repeat the deduplicator's.
///
/// An entry is kept in 80 bytes rather than as the ``ItemOrdering/Entry`` it stands for (136): its source as its
/// position in the run's list rather than its id too, its dates as numbers (`nan` for none) rather than optionals,
/// its source and feed positions in four bytes each. A run of 50,000 items keeps 65,536 of them (the array
/// doubles).
private struct KeptItems {
    private struct Stored {
        var id: String
        var url: String?
        var alsoIn: [TributaryExtension.ItemReference]
        /// The outline's dates (`nan`: none).
        var datePublished: Double
        var dateModified: Double
        var outlineFirstSeen: Double
        /// The entry's first-seen time.
        var firstSeen: Double
        var sourceIndex: Int32
        /// Clamped at `Int32.max`: a source would have to send two billion items in one run to reach it.
        var arrivalIndex: Int32

        init(_ entry: ItemOrdering.Entry) {
            id = entry.outline.id
            url = entry.outline.url
            alsoIn = entry.outline.alsoIn
            datePublished = Self.number(entry.outline.datePublished)
            dateModified = Self.number(entry.outline.dateModified)
            outlineFirstSeen = Self.number(entry.outline.firstSeen)
            firstSeen = entry.firstSeen.timeIntervalSinceReferenceDate
            sourceIndex = Int32(entry.sourceIndex)
            arrivalIndex = Int32(clamping: entry.arrivalIndex)
        }

        func entry(sourceIDs: [SourceID]) -> ItemOrdering.Entry {
            ItemOrdering.Entry(
                outline: outline(sourceIDs: sourceIDs),
                firstSeen: Date(timeIntervalSinceReferenceDate: firstSeen),
                sourceIndex: Int(sourceIndex),
                arrivalIndex: Int(arrivalIndex)
            )
        }

        func outline(sourceIDs: [SourceID]) -> ItemOutline {
            ItemOutline(
                sourceID: sourceIDs[Int(sourceIndex)],
                id: id,
                url: url,
                datePublished: Self.date(datePublished),
                dateModified: Self.date(dateModified),
                firstSeen: Self.date(outlineFirstSeen),
                alsoIn: alsoIn
            )
        }

        /// ``ItemOrdering/Entry/position``, read without making the entry.
        var position: ItemOrdering.Position {
            let sortDate = !datePublished.isNaN ? datePublished : !dateModified.isNaN ? dateModified : firstSeen
            return ItemOrdering.Position(
                sortDate: Date(timeIntervalSinceReferenceDate: sortDate),
                sourceIndex: Int(sourceIndex),
                arrivalIndex: Int(arrivalIndex)
            )
        }

        private static func number(_ date: Date?) -> Double { date?.timeIntervalSinceReferenceDate ?? .nan }
        private static func date(_ number: Double) -> Date? {
            number.isNaN ? nil : Date(timeIntervalSinceReferenceDate: number)
        }
    }

    /// The id of each source, by its position in the run's list.
    private let sourceIDs: [SourceID]
    private var slots: [Stored?] = []

    init(sourceIDs: [SourceID]) {
        self.sourceIDs = sourceIDs
    }

    subscript(slot: Int) -> ItemOrdering.Entry? {
        get { slot < slots.count ? slots[slot]?.entry(sourceIDs: sourceIDs) : nil }
        set {
            if slot >= slots.count {
                guard newValue != nil else { return }
                slots.append(contentsOf: repeatElement(nil, count: slot + 1 - slots.count))
            }
            slots[slot] = newValue.map(Stored.init)
        }
    }

    /// The kept items' outlines in digest order (``ItemOrdering/Position``), sorting small places rather than the
    /// entries themselves. The outlines move out (the run is over): copying them and then releasing the entries was
    /// two reference-count changes for each string of 50,000 outlines, on one core at the end of the run.
    mutating func takeOutlinesInDigestOrder() -> [ItemOutline] {
        var places: [(position: ItemOrdering.Position, slot: Int32)] = []
        places.reserveCapacity(slots.count)
        for slot in slots.indices {
            if let position = slots[slot]?.position { places.append((position, Int32(slot))) }
        }
        places.sort { $0.position < $1.position }
        // Sized once: grown step by step, the last step held the old and the new buffer (10 MiB at 50,000 items)
        // beside the entries, the run's peak.
        var outlines: [ItemOutline] = []
        outlines.reserveCapacity(places.count)
        for place in places {
            if let stored = slots[Int(place.slot)].take() { outlines.append(stored.outline(sourceIDs: sourceIDs)) }
        }
        slots = []
        return outlines
    }
}

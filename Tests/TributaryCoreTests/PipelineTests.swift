import Foundation
import Testing
import TributaryCore

@Suite struct PipelineTests {
    private func pipeline(
        _ sources: [PipelineSource],
        settings: PipelineSettings = fixedSettings(),
        store: any ItemStore = InMemoryItemStore()
    ) -> Pipeline {
        Pipeline(sources: sources, settings: settings, store: store)
    }

    private func source(_ scripted: ScriptedSource, timeout: Duration? = nil) -> PipelineSource {
        PipelineSource(source: scripted, kind: ScriptedSource.kind, timeout: timeout)
    }

    // MARK: - Isolation

    @Test func throwingAndHangingSourcesLeaveTheHealthyOneUntouched() async throws {
        let healthy = ScriptedSource.healthy("healthy", [makeItem("h1"), makeItem("h2")], [makeItem("h3")])
        let thrower = ScriptedSource(
            "thrower",
            [.send(.started), .send(.items([makeItem("t1")])), .fail("disk on fire")]
        )
        let hanger = ScriptedSource("hanger", [.send(.started), .send(.items([makeItem("g1")])), .hang])
        let clock = ContinuousClock()
        let start = clock.now

        let result = try await pipeline([
            source(healthy), source(thrower), source(hanger, timeout: .milliseconds(200)),
        ])
        .run()

        // A hang would last the hour (or minute) the source sleeps; 10 s tells the two apart even on a loaded CI
        // machine, where a 1 s bound failed under parallel test load.
        #expect(clock.now - start < .seconds(10))
        #expect(result.statuses.map(\.sourceID) == ["healthy", "thrower", "hanger"])
        #expect(result.statuses[0].state == .succeeded)
        #expect(result.statuses[0].itemCount == 3)
        let thrown = try #require(result.statuses[1].error)
        #expect(thrown.sourceID == "thrower")
        #expect(thrown.reason == .other("Failure: disk on fire"))
        #expect(thrown.underlying is ScriptedSource.Failure)
        #expect(result.statuses[1].itemCount == 1)
        #expect(
            result.statuses[2].error == SourceError(sourceID: "hanger", reason: .timedOut(after: .milliseconds(200)))
        )
        #expect(result.statuses[2].itemCount == 1)
        #expect(result.hasFailures)
        #expect(Set(result.items.map(\.id)) == ["h1", "h2", "h3", "t1", "g1"])
        #expect(result.statuses.allSatisfy { $0.duration != nil })
    }

    @Test func aSourceBlockedWhereCancellationCannotReachIsAbandonedAtItsTimeout() async throws {
        // The push handshake that ignored cancellation, a C call that runs on: the run must end at the timeout all
        // the same, report the source as timed out, and drop whatever it sends once it wakes up.
        let blocked = ScriptedSource(
            "blocked",
            [
                .send(.started), .send(.items([FeedItem(id: "b1")])), .block(.seconds(8)),
                .send(.items([FeedItem(id: "late")])), .send(.finished),
            ]
        )
        let clock = ContinuousClock()
        let start = clock.now
        let events = EventRecorder()
        let result = try await pipeline([
            source(.healthy("healthy", [FeedItem(id: "h1")])), source(blocked, timeout: .milliseconds(300)),
        ])
        .run(onEvent: { event in events.record(event) })
        #expect(clock.now - start < .seconds(6), "the run waited for the blocked source")
        #expect(result.statuses[0].state == .succeeded)
        #expect(
            result.statuses[1].error == SourceError(sourceID: "blocked", reason: .timedOut(after: .milliseconds(300)))
        )
        #expect(Set(result.items.map(\.id)) == ["h1", "b1"])
        // The source wakes up after the run and sends its late events into a closed gate: nothing reaches the run.
        try await Task.sleep(for: .seconds(8.5))
        #expect(
            !events.all.contains { event in
                if case .itemsAdded(let items) = event { return items.contains { $0.id == "late" } }
                return false
            }
        )
        #expect(
            !events.all.contains { event in
                if case .warning = event { return true }
                return false
            }
        )
    }

    @Test func keepsASourceErrorThrownByTheSourceAsItIs() async throws {
        let error = SourceError(sourceID: "broken", reason: .notAFeed(path: "x.json", detail: "no items"))
        let result = try await pipeline([source(ScriptedSource("broken", [.send(.started), .throwError(error)]))]).run()
        #expect(result.statuses[0].error == error)
        #expect(result.statuses[0].error?.reason == .notAFeed(path: "x.json", detail: "no items"))
    }

    @Test func aFailedEventBecomesAFailedStatusAndKeepsEarlierItems() async throws {
        let error = SourceError(sourceID: "half", reason: .connection(url: "https://x.example", detail: "reset"))
        let script = ScriptedSource("half", [.send(.started), .send(.items([makeItem("a")])), .send(.failed(error))])
        let result = try await pipeline([source(script)]).run()
        #expect(result.statuses[0].state == .failed(error))
        #expect(result.items.map(\.id) == ["a"])
    }

    @Test func allHealthySourcesMeanNoFailures() async throws {
        let result = try await pipeline([
            source(.healthy("one", [makeItem("a")])), source(.healthy("two", [makeItem("b")])),
        ])
        .run()
        #expect(!result.hasFailures)
        #expect(result.statuses.map(\.state) == [.succeeded, .succeeded])
    }

    @Test func aSourceThatReturnsWithoutFinishingIsFinishedWithAWarning() async throws {
        let script = ScriptedSource("quiet", [.send(.started), .send(.items([makeItem("a")]))])
        let result = try await pipeline([source(script)]).run()
        #expect(result.statuses[0].state == .succeeded)
        #expect(result.statuses[0].warnings.map(\.message) == ["source ended without finishing (SRC-8)"])
        #expect(result.items.map(\.id) == ["a"])
    }

    @Test func eventsAfterTheTerminalEventAreIgnoredWithAWarning() async throws {
        let script = ScriptedSource(
            "chatty",
            [.send(.started), .send(.items([makeItem("a")])), .send(.finished), .send(.items([makeItem("late")]))]
        )
        let result = try await pipeline([source(script)]).run()
        #expect(result.items.map(\.id) == ["a"])
        #expect(result.statuses[0].state == .succeeded)
        #expect(result.statuses[0].itemCount == 1)
        #expect(
            result.statuses[0].warnings.map(\.message) == ["ignored items after the source's terminal event (SRC-8)"]
        )
    }

    @Test func cancellingTheRunStopsEverySourcePromptly() async throws {
        let sources = [
            source(ScriptedSource("hang-one", [.send(.started), .hang]), timeout: .seconds(60)),
            source(ScriptedSource("hang-two", [.hang]), timeout: .seconds(60)),
        ]
        let pipeline = pipeline(sources)
        let clock = ContinuousClock()
        let start = clock.now
        let outcome = await withTaskGroup(of: (any Error)?.self) { group in
            group.addTask {
                do {
                    _ = try await pipeline.run()
                    return nil
                } catch {
                    return error
                }
            }
            try? await Task.sleep(for: .milliseconds(100))
            group.cancelAll()
            return await group.next() ?? nil
        }
        // A hang would last the hour (or minute) the source sleeps; 10 s tells the two apart even on a loaded CI
        // machine, where a 1 s bound failed under parallel test load.
        #expect(clock.now - start < .seconds(10))
        #expect(outcome is CancellationError)
    }

    @Test func aRunWithoutSourcesReturnsAnEmptyResult() async throws {
        let result = try await pipeline([]).run()
        #expect(result.items.isEmpty)
        #expect(result.statuses.isEmpty)
        #expect(!result.hasFailures)
    }

    // MARK: - Events

    @Test func publishesEventsInOrder() async throws {
        let script = ScriptedSource(
            "one",
            [
                .send(.started), .send(.items([makeItem("a"), makeItem("b")])), .send(.warning(SourceWarning("odd"))),
                .send(.items([makeItem("c")])), .send(.finished),
            ]
        )
        let recorder = EventRecorder()
        _ = try await pipeline([source(script)]).run(onEvent: { recorder.record($0) })
        #expect(
            recorder.lines == [
                "status one running 0",
                "added a,b",
                "status one running 2",
                "warning one odd",
                "status one running 2",
                "added c",
                "status one running 3",
                "status one succeeded 3",
            ]
        )
    }

    @Test func publishesEachBatchBeforeTheSourceSendsTheNext() async throws {
        // The source sends its second batch only once the first has been published: a pipeline that held items
        // back until a source finished would make the source fail here.
        let firstBatchSeen = Flag()
        let slow = ScriptedSource(
            "slow",
            [
                .send(.started), .send(.items([makeItem("s1")])), .waitUntil({ firstBatchSeen.isSet }),
                .send(.items([makeItem("s2")])), .send(.finished),
            ]
        )
        let fast = ScriptedSource.healthy("fast", [makeItem("f1")])
        let recorder = EventRecorder()
        let result = try await pipeline([source(slow), source(fast)])
            .run(onEvent: { event in
                recorder.record(event)
                if case .itemsAdded(let items) = event, items.map(\.id) == ["s1"] { firstBatchSeen.set() }
            })
        #expect(result.statuses.map(\.state) == [.succeeded, .succeeded])
        #expect(Set(result.items.map(\.id)) == ["s1", "s2", "f1"])
        let added = recorder.lines.filter { $0.hasPrefix("added") }
        #expect(added.firstIndex(of: "added s1").map { $0 < (added.firstIndex(of: "added s2") ?? -1) } == true)
    }

    @Test func publishedItemsAreNormalisedAndStamped() async throws {
        let raw = FeedItem(id: "", url: "https://example.org/a", title: "Café <b> news")
        let recorder = EventRecorder()
        let result = try await pipeline([source(.healthy("src", [raw]))]).run(onEvent: { recorder.record($0) })
        let added = recorder.all.compactMap { event -> [FeedItem]? in
            if case .itemsAdded(let items) = event { return items }
            return nil
        }
        let item = try #require(added.first?.first)
        #expect(item.title == "Café <b> news")  // Plain text as the source made it: never stripped again.
        #expect(item.id == "https://example.org/a")
        #expect(item.sourceID == "src")
        #expect(item.tributary?.firstSeen == referenceNow)
        #expect(result.items == [item])
    }

    @Test func relativeURLsWithoutABaseAreDroppedWithAWarning() async throws {
        let raw = FeedItem(id: "a", url: "/posts/a", title: "A")
        let result = try await pipeline([source(.healthy("src", [raw]))]).run()
        #expect(result.items.first?.url == nil)
        #expect(result.statuses[0].warnings.count == 1)
        #expect(result.statuses[0].warnings.first?.message.contains("/posts/a") == true)
    }

    @Test func relativeURLsResolveAgainstTheSourceBaseURL() async throws {
        let raw = FeedItem(id: "a", url: "/posts/a", title: "A")
        let configured = PipelineSource(
            source: ScriptedSource.healthy("src", [raw]),
            kind: "scripted",
            baseURL: URL(string: "https://blog.example/feed.xml")
        )
        let result = try await pipeline([configured]).run()
        #expect(result.items.first?.url == "https://blog.example/posts/a")
        #expect(result.statuses[0].warnings.isEmpty)
    }

    @Test func theEventStreamCarriesTheSameEventsAndEnds() async throws {
        let make = {
            [
                PipelineSource(
                    source: ScriptedSource.healthy("a", [makeItem("a1")], [makeItem("a2")]),
                    kind: "scripted"
                ),
                PipelineSource(
                    source: ScriptedSource("b", [.send(.started), .fail("nope")]),
                    kind: "scripted"
                ),
            ]
        }
        let recorder = EventRecorder()
        let expected = try await pipeline(make()).run(onEvent: { recorder.record($0) })
        let (result, streamed) = try await pipeline(make()).withEventStream { stream in
            var events: [PipelineEvent] = []
            for await event in stream { events.append(event) }
            return events
        }
        #expect(result.items == expected.items)
        // Durations differ between runs; everything else about the statuses must match.
        let withoutDurations = { (statuses: [SourceStatus]) in
            statuses.map { status in
                var status = status
                status.duration = nil
                return status
            }
        }
        #expect(withoutDurations(result.statuses) == withoutDurations(expected.statuses))
        #expect(result.hasFailures)
        #expect(streamed.count == recorder.all.count)
        #expect(streamed.filter(Self.isItemEvent) == recorder.all.filter(Self.isItemEvent))
        #expect(streamed.last.map(Self.isFinalStatus) == true)
    }

    @Test func cancellingTheEventStreamEndsItPromptly() async throws {
        let pipeline = pipeline([source(ScriptedSource("hang", [.send(.started), .hang]), timeout: .seconds(60))])
        let clock = ContinuousClock()
        let start = clock.now
        let outcome = await withTaskGroup(of: (any Error)?.self) { group in
            group.addTask {
                do {
                    _ = try await pipeline.withEventStream { stream in
                        for await _ in stream {}
                    }
                    return nil
                } catch {
                    return error
                }
            }
            try? await Task.sleep(for: .milliseconds(100))
            group.cancelAll()
            return await group.next() ?? nil
        }
        // A hang would last the hour (or minute) the source sleeps; 10 s tells the two apart even on a loaded CI
        // machine, where a 1 s bound failed under parallel test load.
        #expect(clock.now - start < .seconds(10))
        #expect(outcome is CancellationError)
    }

    private static func isItemEvent(_ event: PipelineEvent) -> Bool {
        switch event {
        case .itemsAdded, .itemsUpdated, .itemsRemoved: true
        case .sourceStatusChanged, .warning: false
        }
    }

    private static func isFinalStatus(_ event: PipelineEvent) -> Bool {
        if case .sourceStatusChanged(let status) = event { return status.state.isFinal }
        return false
    }

    // MARK: - Store

    @Test func savesKeptItemsToTheStoreWithTheirFirstSeenTime() async throws {
        let store: any ItemStore = InMemoryItemStore()
        _ = try await pipeline([source(.healthy("src", [makeItem("a"), makeItem("b")]))], store: store).run()
        let stored = try await store.items()
        #expect(stored.map(\.item.id) == ["a", "b"])
        #expect(stored.allSatisfy { $0.sourceID == "src" && $0.firstSeen == referenceNow })
        #expect(stored.allSatisfy { $0.item.tributary?.firstSeen == referenceNow })
    }

    @Test func keepsTheStoredFirstSeenTimeOfAnItemSeenInAnEarlierRun() async throws {
        let store: any ItemStore = InMemoryItemStore()
        let earlier = hoursFromNow(-30)
        _ = try await store.save([makeItem("a")], from: "src", at: earlier)
        let result = try await pipeline([source(.healthy("src", [makeItem("a")]))], store: store).run()
        #expect(result.items.first?.tributary?.firstSeen == earlier)
    }

    @Test func aNotModifiedSourceServesTheItemsTheStoreHoldsFromItsLastRun() async throws {
        let store: any ItemStore = InMemoryItemStore()
        let earlier = hoursFromNow(-30)
        _ = try await store.save([makeItem("a"), makeItem("b")], from: "src", at: earlier)
        _ = try await store.save([makeItem("x")], from: "other", at: earlier)
        let sources = [source(ScriptedSource("src", [.send(.started), .send(.notModified)]))]
        let result = try await pipeline(sources, store: store).run()
        #expect(result.items.map(\.id).sorted() == ["a", "b"])
        #expect(result.items.allSatisfy { $0.tributary?.firstSeen == earlier })
        #expect(result.statuses.map(\.state) == [.notModified])
        #expect(result.statuses.first?.itemCount == 2)
    }

    @Test func storedItemsServedForANotModifiedSourceAreNotWrittenAgain() async throws {
        // A warm run: the items come back from the store as they were saved, and nothing is saved again (the
        // store would otherwise rewrite every item of every unchanged feed on every run).
        let store = SaveCountingStore()
        let earlier = hoursFromNow(-30)
        _ = try await store.save([makeItem("a", published: hoursFromNow(-2)), makeItem("b")], from: "src", at: earlier)
        let saves = await store.saves
        let result = try await pipeline(
            [source(ScriptedSource("src", [.send(.started), .send(.notModified)]))],
            store: store
        )
        .run()
        #expect(await store.saves == saves)
        #expect(result.items.map(\.id) == ["a", "b"])
        #expect(result.items.allSatisfy { $0.tributary?.firstSeen == earlier })
    }

    @Test func aCheckpointIsStoredForTheSourceThatSentIt() async throws {
        let store: any ItemStore = InMemoryItemStore()
        let checkpoint = SourceCheckpoint(["etag": "\"v2\""])
        let sources = [
            source(ScriptedSource("src", [.send(.started), .send(.checkpoint(checkpoint)), .send(.finished)])),
            source(.healthy("other", [makeItem("a")])),
        ]
        _ = try await pipeline(sources, store: store).run()
        #expect(try await store.checkpoint(for: "src") == checkpoint)
        #expect(try await store.checkpoint(for: "other").isEmpty)
    }

    /// Also while the failing save is on its way and the run goes on (``PipelineSettings/overlapsSaves``).
    @Test(arguments: [false, true])
    func aFailingStoreEndsTheRunWithItsErrorAndStopsTheSources(overlappingSaves: Bool) async throws {
        struct BrokenStore: ItemStore {
            struct Broken: Error {}
            func save(_ items: [FeedItem], from source: SourceID, at date: Date) async throws -> StoreChanges {
                throw Broken()
            }
            func items() async throws -> [StoredItem] { [] }
            func currentItems(from source: SourceID) async throws -> [StoredItem] { [] }
            func checkpoint(for source: SourceID) async throws -> SourceCheckpoint { SourceCheckpoint() }
            func saveCheckpoint(_ checkpoint: SourceCheckpoint, for source: SourceID) async throws {}
            func lastDigestDate() async throws -> Date? { nil }
            func recordDigest(at date: Date) async throws {}
        }
        let sources = [
            source(.healthy("items", [makeItem("a")])),
            source(ScriptedSource("hang", [.send(.started), .hang]), timeout: .seconds(60)),
        ]
        var settings = fixedSettings()
        settings.overlapsSaves = overlappingSaves
        let clock = ContinuousClock()
        let start = clock.now
        await #expect(throws: BrokenStore.Broken.self) {
            _ = try await pipeline(sources, settings: settings, store: BrokenStore()).run()
        }
        // A hang would last the hour (or minute) the source sleeps; 10 s tells the two apart even on a loaded CI
        // machine, where a 1 s bound failed under parallel test load.
        #expect(clock.now - start < .seconds(10))
    }

    // MARK: - Deduplication

    @Test func duplicatesAcrossSourcesKeepTheFirstAndRecordTheOthers() async throws {
        let first = ScriptedSource.healthy(
            "first",
            [makeItem("f1", url: "https://Example.org/story?id=7&utm_source=rss#comments"), makeItem("f2")]
        )
        let second = ScriptedSource(
            "second",
            [
                .sleep(.milliseconds(150)), .send(.started),
                .send(.items([makeItem("s1", url: "https://example.org/story?id=7"), makeItem("s2")])),
                .send(.finished),
            ]
        )
        let recorder = EventRecorder()
        let result = try await pipeline([source(first), source(second)]).run(onEvent: { recorder.record($0) })

        #expect(Set(result.items.map(\.id)) == ["f1", "f2", "s2"])
        let kept = try #require(result.items.first { $0.id == "f1" })
        #expect(kept.sourceID == "first")
        #expect(
            kept.tributary?.alsoIn == [
                TributaryExtension.ItemReference(source: "second", id: "s1", url: "https://example.org/story?id=7")
            ]
        )
        #expect(result.statuses[1].itemCount == 1)
        #expect(recorder.lines.contains("updated f1"))
        #expect(recorder.lines.contains("added s2"))
        let updatedEvent = recorder.all.compactMap { event -> FeedItem? in
            if case .itemsUpdated(let items) = event { return items.first }
            return nil
        }
        #expect(updatedEvent == [kept])
    }

    /// A run that does not hold its items keeps outlines only, and the store ends with what a run holding them
    /// would have stored: an item saved before another source's copy joined its `also_in` is read back and saved
    /// again with it.
    @Test func aRunThatHoldsOnlyOutlinesStoresWhatAHoldingRunStores() async throws {
        func run(holdingItems: Bool) async throws -> (PipelineResult, [StoredItem]) {
            let first = ScriptedSource.healthy(
                "first",
                [makeItem("f1", url: "https://example.org/story"), makeItem("f2")]
            )
            let second = ScriptedSource(
                "second",
                [
                    .sleep(.milliseconds(150)), .send(.started),
                    .send(.items([makeItem("s1", url: "https://example.org/story?utm_source=x"), makeItem("s2")])),
                    .send(.finished),
                ]
            )
            var settings = fixedSettings()
            settings.holdsItems = holdingItems
            let store = InMemoryItemStore()
            let result = try await pipeline([source(first), source(second)], settings: settings, store: store).run()
            return (result, await store.items())
        }
        let (held, heldStore) = try await run(holdingItems: true)
        let (outlined, outlinedStore) = try await run(holdingItems: false)
        #expect(outlined.items.isEmpty)
        #expect(outlined.outlines == held.outlines)
        #expect(outlined.outlines.map(\.id) == held.items.map(\.id))
        #expect(Set(outlined.outlines.map(\.id)) == ["f1", "f2", "s2"])
        let reference = TributaryExtension.ItemReference(
            source: "second",
            id: "s1",
            url: "https://example.org/story?utm_source=x"
        )
        #expect(outlined.outlines.first { $0.id == "f1" }?.alsoIn == [reference])
        #expect(outlinedStore.first { $0.item.id == "f1" }?.item.tributary?.alsoIn == [reference])
        #expect(outlinedStore == heldStore)
    }

    /// With a run-wide limit, sources wait for a turn, and the wait is not charged to their timeout.
    @Test func aRunWideLimitQueuesSourcesWithoutChargingTheirTimeout() async throws {
        let sources = (0..<3).map { index in
            source(
                ScriptedSource(
                    SourceID("slow-\(index)"),
                    [
                        .send(.started), .sleep(.milliseconds(200)), .send(.items([makeItem("i\(index)")])),
                        .send(.finished),
                    ]
                ),
                timeout: .milliseconds(450)
            )
        }
        var settings = fixedSettings()
        settings.maxConcurrentSources = 1
        let clock = ContinuousClock()
        let start = clock.now
        let result = try await pipeline(sources, settings: settings).run()
        // One at a time: three 200 ms sources take 600 ms at least; each ran within its 450 ms.
        #expect(clock.now - start >= .milliseconds(600))
        #expect(result.statuses.allSatisfy { $0.state == .succeeded }, "\(result.statuses.map(\.state))")
        #expect(Set(result.items.map(\.id)) == ["i0", "i1", "i2"])
    }

    @Test func theSourceListedFirstKeepsADuplicateEvenWhenItAnswersLast() async throws {
        // "late" is listed first but answers after "early" and "third" have delivered the same story.
        let late = ScriptedSource(
            "late",
            [
                .sleep(.milliseconds(150)), .send(.started),
                .send(.items([makeItem("l1", url: "https://example.org/story#top")])), .send(.finished),
            ]
        )
        let early = ScriptedSource.healthy("early", [makeItem("e1", url: "https://example.org/story?utm_medium=x")])
        let third = ScriptedSource(
            "third",
            [
                .sleep(.milliseconds(50)), .send(.started),
                .send(.items([makeItem("t1", url: "https://example.org/story"), makeItem("t2")])), .send(.finished),
            ]
        )
        let recorder = EventRecorder()
        let result = try await pipeline([source(late), source(early), source(third)])
            .run(onEvent: { recorder.record($0) })

        #expect(Set(result.items.map(\.id)) == ["l1", "t2"])
        let kept = try #require(result.items.first { $0.id == "l1" })
        #expect(kept.sourceID == "late")
        #expect(
            kept.tributary?.alsoIn == [
                TributaryExtension.ItemReference(
                    source: "early",
                    id: "e1",
                    url: "https://example.org/story?utm_medium=x"
                ),
                TributaryExtension.ItemReference(source: "third", id: "t1", url: "https://example.org/story"),
            ]
        )
        #expect(result.statuses.map(\.itemCount) == [1, 0, 1])
        #expect(recorder.lines.contains("added l1"))
        let removed = recorder.all.flatMap { event -> [String] in
            if case .itemsRemoved(let items) = event { return items.map(\.id) }
            return []
        }
        #expect(removed == ["e1"])
    }

    @Test func theSameIDFromTheSameSourceIsAnUpdateNotADuplicate() async throws {
        let script = ScriptedSource.healthy(
            "src",
            [makeItem("a", title: "First take")],
            [makeItem("a", title: "Second take"), makeItem("a", title: "Second take")]
        )
        let recorder = EventRecorder()
        let result = try await pipeline([source(script)]).run(onEvent: { recorder.record($0) })
        #expect(result.items.map(\.title) == ["Second take"])
        #expect(result.statuses[0].itemCount == 1)
        #expect(recorder.lines.filter { $0.hasPrefix("added") || $0.hasPrefix("updated") } == ["added a", "updated a"])
    }

    // MARK: - Filters and limits

    @Test func appliesGlobalAndPerSourceKeywordFilters() async throws {
        let english = PipelineSource(
            source: ScriptedSource.healthy(
                "english",
                [
                    makeItem("e1", title: "SWIFT 6 released"), makeItem("e2", title: "Rust news"),
                    makeItem("e3", title: "Swift sponsored post"),
                    makeItem("e4", title: "Café culture", tags: ["swift"]),
                ]
            ),
            kind: "scripted",
            include: ["swift"]
        )
        let japanese = PipelineSource(
            source: ScriptedSource.healthy(
                "japanese",
                [
                    makeItem("j1", title: "東京の天気"), makeItem("j2", title: "大阪の天気"),
                    makeItem("j3", title: "東京 Sponsored"),
                ]
            ),
            kind: "scripted",
            include: ["東京"],
            exclude: ["天気予報"]
        )
        let result = try await pipeline([english, japanese], settings: fixedSettings(exclude: ["sponsored"])).run()
        #expect(Set(result.items.map(\.id)) == ["e1", "e4", "j1"])
        #expect(result.statuses.map(\.itemCount) == [2, 1])
    }

    @Test func globalIncludeAppliesToEverySource() async throws {
        let result = try await pipeline(
            [
                source(.healthy("one", [makeItem("a", title: "Naïve cafe"), makeItem("b", title: "Other")])),
                source(.healthy("two", [makeItem("c", title: "CAFÉ opens")])),
            ],
            settings: fixedSettings(include: ["café"])
        )
        .run()
        #expect(Set(result.items.map(\.id)) == ["a", "c"])
    }

    @Test func maxItemsKeepsTheNewestItemsOfASource() async throws {
        let script = ScriptedSource.healthy(
            "src",
            [makeItem("h5", published: hoursFromNow(-5)), makeItem("h1", published: hoursFromNow(-1))],
            [makeItem("h3", published: hoursFromNow(-3)), makeItem("h10", published: hoursFromNow(-10))]
        )
        let capped = PipelineSource(source: script, kind: "scripted", maxItems: 2)
        let recorder = EventRecorder()
        let result = try await pipeline([capped]).run(onEvent: { recorder.record($0) })
        #expect(result.items.map(\.id) == ["h1", "h3"])
        #expect(result.statuses[0].itemCount == 2)
        #expect(recorder.lines.contains("removed h5"))
    }

    @Test(arguments: [true, false])
    func aFloodFarBeyondTheCapKeepsTheNewestAndTakesLinearTime(oldestFirst: Bool) async throws {
        // 100,000 items against a cap of 5,000: finding the oldest kept item must not scan all 5,000 for each of the
        // 95,000 items over the cap (half a billion comparisons, minutes in a debug build).
        let count = 100_000
        let minutes = (0..<count).map { oldestFirst ? $0 : count - 1 - $0 }
        let batches = stride(from: 0, to: count, by: 1_000).map { start in
            minutes[start..<start + 1_000].map { makeItem("m\($0)", published: hoursFromNow(Double($0) / 60 - 2_000)) }
        }
        let script = ScriptedSource("flood", [.send(.started)] + batches.map { .send(.items($0)) } + [.send(.finished)])
        let clock = ContinuousClock()
        let started = clock.now
        let result = try await pipeline(
            [source(script, timeout: .seconds(300))],
            settings: fixedSettings(maxItemsPerSource: 5_000)
        )
        .run()
        // A bound against the quadratic scan (minutes), not a benchmark: a debug build takes a few seconds.
        #expect(clock.now - started < .seconds(60))
        #expect(result.items.count == 5_000)
        #expect(result.items.first?.id == "m\(count - 1)")
        #expect(result.items.last?.id == "m\(count - 5_000)")
    }

    @Test func anUpdatedItemMovesInTheCapsOrder() async throws {
        // "old" is updated to the newest date, so the cap lets "middle" go instead of it.
        let script = ScriptedSource.healthy(
            "src",
            [makeItem("old", published: hoursFromNow(-10)), makeItem("middle", published: hoursFromNow(-5))],
            [makeItem("old", published: hoursFromNow(-1))],
            [makeItem("new", published: hoursFromNow(-2))]
        )
        let capped = PipelineSource(source: script, kind: "scripted", maxItems: 2)
        let result = try await pipeline([capped]).run()
        #expect(result.items.map(\.id) == ["old", "new"])
    }

    @Test func aSlotAnotherSourceTookOverIsNotTheCapsOldest() async throws {
        // "a0" leaves under its source's cap of 1, and "b0", another source's item with the same date and the same
        // place in its feed, takes over its slot: the first source's cap must not take "b0" for its oldest item.
        let recorder = EventRecorder()
        let first = ScriptedSource(
            "a",
            [
                .send(.started),
                .send(.items([makeItem("a0", published: hoursFromNow(-10))])),
                .send(.items([makeItem("a1", published: hoursFromNow(-5))])),
                .waitUntil { recorder.lines.contains("added b0") },
                .send(.items([makeItem("a2", published: hoursFromNow(-1))])),
                .send(.finished),
            ]
        )
        let second = ScriptedSource(
            "b",
            [
                .waitUntil { recorder.lines.contains("removed a0") },
                .send(.started),
                .send(.items([makeItem("b0", published: hoursFromNow(-10))])),
                .send(.finished),
            ]
        )
        let result = try await pipeline([
            PipelineSource(source: first, kind: "scripted", maxItems: 1),
            PipelineSource(source: second, kind: "scripted"),
        ])
        .run(onEvent: { recorder.record($0) })
        #expect(result.items.map(\.id) == ["a2", "b0"])
        #expect(result.statuses.map(\.itemCount) == [1, 1])
        #expect(recorder.lines.contains("removed a1"))
    }

    @Test func maxItemsPerSourceAppliesUnlessTheSourceSetsItsOwn() async throws {
        let items = (1...4).map { makeItem("i\($0)", published: hoursFromNow(-Double($0))) }
        let general = PipelineSource(source: ScriptedSource.healthy("general", items), kind: "scripted")
        let own = PipelineSource(
            source: ScriptedSource.healthy("own", items.map { makeItem("o-" + $0.id, published: $0.datePublished) }),
            kind: "scripted",
            maxItems: 3
        )
        let result = try await pipeline([general, own], settings: fixedSettings(maxItemsPerSource: 1)).run()
        #expect(result.statuses.map(\.itemCount) == [1, 3])
        #expect(result.items.map(\.id) == ["i1", "o-i1", "o-i2", "o-i3"])
    }

    @Test func aCapThatLeavesItemsOutSaysSoAndNamesTheKeyToRaise() async throws {
        let items = (1...4).map { makeItem("i\($0)", published: hoursFromNow(-Double($0))) }
        let general = PipelineSource(source: ScriptedSource.healthy("general", items), kind: "scripted")
        let own = PipelineSource(
            source: ScriptedSource.healthy("own", items.map { makeItem("o-" + $0.id, published: $0.datePublished) }),
            kind: "scripted",
            maxItems: 3
        )
        let roomy = PipelineSource(
            source: ScriptedSource.healthy("roomy", [makeItem("r1", published: hoursFromNow(-1))]),
            kind: "scripted",
            maxItems: 3
        )
        let result = try await pipeline([general, own, roomy], settings: fixedSettings(maxItemsPerSource: 1)).run()
        #expect(
            result.statuses[0].warnings.map(\.message) == [
                "kept the newest 1 items; 3 older ones were left out (raise \"maxItemsPerSource\" in feeds.json to keep more)"
            ]
        )
        #expect(
            result.statuses[1].warnings.map(\.message) == [
                "kept the newest 3 items; 1 older ones were left out (raise this source's \"maxItems\" to keep more)"
            ]
        )
        #expect(result.statuses[2].warnings.isEmpty)
    }

    @Test func aSourcesWarningsAreCappedAndTheRestCounted() async throws {
        // 250 items with relative links and no base: one warning each.
        let items = (1...250).map { FeedItem(id: "i\($0)", url: "/relative/\($0)", title: "T\($0)") }
        let source = PipelineSource(source: ScriptedSource.healthy("noisy", items), kind: "scripted")
        let recorder = EventRecorder()
        let result = try await pipeline([source]).run(onEvent: { recorder.record($0) })
        let warnings = result.statuses[0].warnings.map(\.message)
        #expect(warnings.count == 101)
        #expect(warnings.last == "150 more warnings like these were not shown (the first 100 were)")
        #expect(result.items.count == 250)
    }

    @Test func feedsJSONWithoutACapGetsTheDefaultOne() throws {
        let configuration = FeedsConfiguration(file: URL(fileURLWithPath: "/tmp/feeds.json"), sources: [])
        #expect(
            PipelineSettings(configuration: configuration).maxItemsPerSource
                == PipelineSettings.defaultMaxItemsPerSource
        )
        var capped = configuration
        capped.maxItemsPerSource = 30
        #expect(PipelineSettings(configuration: capped).maxItemsPerSource == 30)
    }

    @Test func maxAgeDropsOldDatedItemsAndKeepsUndatedOnes() async throws {
        var modifiedOnly = makeItem("modified-old")
        modifiedOnly.dateModified = hoursFromNow(-72)
        let script = ScriptedSource.healthy(
            "src",
            [
                makeItem("fresh", published: hoursFromNow(-1)), makeItem("stale", published: hoursFromNow(-49)),
                makeItem("undated"), modifiedOnly, makeItem("edge", published: hoursFromNow(-48)),
            ]
        )
        let result = try await pipeline([source(script)], settings: fixedSettings(maxAge: .seconds(48 * 3600))).run()
        #expect(result.items.map(\.id) == ["undated", "fresh", "edge"])
    }

    // MARK: - Ordering

    @Test func ordersNewestFirstAndPlacesUndatedItemsByFirstSeen() async throws {
        let first = ScriptedSource.healthy(
            "first",
            [
                makeItem("old", published: hoursFromNow(-2)), makeItem("u1"),
                makeItem("future", published: hoursFromNow(1)),
                makeItem("u2"),
            ]
        )
        let second = ScriptedSource.healthy("second", [makeItem("u3"), makeItem("older", published: hoursFromNow(-5))])
        let result = try await pipeline([source(second), source(first)]).run()
        #expect(result.items.map(\.id) == ["future", "u3", "u1", "u2", "old", "older"])
    }

    @Test func orderingIsTheSameOnEveryRun() async throws {
        let make = {
            [
                PipelineSource(
                    source: ScriptedSource.healthy("a", [makeItem("a1"), makeItem("a2", published: hoursFromNow(-1))]),
                    kind: "scripted"
                ),
                PipelineSource(
                    source: ScriptedSource.healthy("b", [makeItem("b1"), makeItem("b2", published: hoursFromNow(-1))]),
                    kind: "scripted"
                ),
            ]
        }
        let first = try await pipeline(make()).run().items.map(\.id)
        let second = try await pipeline(make()).run().items.map(\.id)
        #expect(first == ["a1", "b1", "a2", "b2"])
        #expect(second == first)
    }

    // MARK: - Configuration

    @Test func pipelineSourceCopiesTheCommonKeysOfItsConfiguration() {
        let configuration = SourceConfiguration(
            id: "src",
            kind: "rss",
            title: "Blog",
            include: ["swift"],
            exclude: ["ad"],
            maxItems: 5,
            timeout: .seconds(3)
        )
        let configured = PipelineSource(source: ScriptedSource("src", []), configuration: configuration)
        #expect(configured.kind == "rss")
        #expect(configured.title == "Blog")
        #expect(configured.include == ["swift"])
        #expect(configured.exclude == ["ad"])
        #expect(configured.maxItems == 5)
        #expect(configured.timeout == .seconds(3))
        #expect(configured.id == "src")
    }

    @Test func settingsCopyTheTopLevelKeysOfTheConfiguration() {
        let configuration = FeedsConfiguration(
            file: URL(fileURLWithPath: "/tmp/feeds.json"),
            maxAge: .seconds(7200),
            maxItemsPerSource: 9,
            include: ["a"],
            exclude: ["b"],
            sources: []
        )
        let settings = PipelineSettings(configuration: configuration, now: { referenceNow })
        #expect(settings.maxAge == .seconds(7200))
        #expect(settings.maxItemsPerSource == 9)
        #expect(settings.include == ["a"])
        #expect(settings.exclude == ["b"])
        #expect(settings.defaultTimeout == .seconds(60))
        #expect(settings.now() == referenceNow)
    }
}

/// An in-memory store that counts its saves.
private actor SaveCountingStore: ItemStore {
    private let inner = InMemoryItemStore()
    private(set) var saves = 0

    func save(_ items: [FeedItem], from source: SourceID, at date: Date) async throws -> StoreChanges {
        saves += 1
        return await inner.save(items, from: source, at: date)
    }

    func items() async throws -> [StoredItem] { await inner.items() }
    func currentItems(from source: SourceID) async throws -> [StoredItem] { await inner.currentItems(from: source) }
    func checkpoint(for source: SourceID) async throws -> SourceCheckpoint { await inner.checkpoint(for: source) }
    func saveCheckpoint(_ checkpoint: SourceCheckpoint, for source: SourceID) async throws {
        await inner.saveCheckpoint(checkpoint, for: source)
    }
    func lastDigestDate() async throws -> Date? { await inner.lastDigestDate() }
    func recordDigest(at date: Date) async throws { await inner.recordDigest(at: date) }
}

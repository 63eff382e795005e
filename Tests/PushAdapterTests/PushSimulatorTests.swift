import Foundation
import Testing
import TributaryCore

@testable import PushAdapter

@Suite struct PushSimulatorTests {
    let epoch = Date(timeIntervalSince1970: 1_767_225_600)

    @Test func splitMix64MatchesTheReferenceSequence() {
        // Reference values of SplitMix64 seeded with 0 (Vigna's splitmix64.c).
        var random = SplitMix64(seed: 0)
        #expect(random.next() == 0xE220_A839_7B1D_CDAF)
        #expect(random.next() == 0x6E78_9E6A_A1B9_65F4)
        #expect(random.next() == 0x06C4_5D18_8009_454F)
    }

    @Test func theSameSeedGivesTheSameItems() {
        let first = PushSimulator(seed: 7, epoch: epoch)
        let second = PushSimulator(seed: 7, epoch: epoch)
        for seq in Int64(1)...50 {
            #expect(first.item(seq: seq) == second.item(seq: seq))
        }
    }

    @Test func differentSeedsGiveDifferentItems() {
        let titles = { (seed: UInt64) in
            (Int64(1)...30).map { PushSimulator(seed: seed, epoch: epoch).item(seq: $0).title }
        }
        #expect(titles(1) != titles(2))
    }

    @Test func itemsAreCompleteAndDistinct() throws {
        let simulator = PushSimulator(seed: 7, epoch: epoch)
        let items = (Int64(1)...200).map { simulator.item(seq: $0) }
        #expect(Set(items.map(\.id)).count == 200)
        for item in items {
            #expect(item.datePublished != nil)
            #expect(!item.id.isEmpty)
            #expect(item.title?.isEmpty == false)
            let url = try #require(item.url.flatMap(URL.init(string:)))
            #expect(url.scheme == "https")
            #expect(
                url.host?.hasSuffix("example.com") == true || url.host?.hasSuffix("example.org") == true
                    || url.host?.hasSuffix("example.net") == true
            )
            #expect(item.authors.first?.name?.isEmpty == false)
            #expect(!item.tags.isEmpty)
        }
    }

    @Test func theBacklogIsSpreadOverTheHoursBeforeTheStartAndLiveItemsAppearAtTheirTime() throws {
        let simulator = PushSimulator(seed: 7, epoch: epoch, backlog: 20, rate: 2)
        let times = try (Int64(1)...30).map { try #require(simulator.item(seq: $0).datePublished) }
        // The newest backlog item a few minutes before the start; the oldest about 20 × 7 minutes before it.
        #expect(times[19] <= epoch.addingTimeInterval(-60) && times[19] > epoch.addingTimeInterval(-420))
        let span = epoch.timeIntervalSince(times[0])
        #expect(span > 19 * 7 * 60 && span <= 20 * 7 * 60)
        for (earlier, later) in zip(times[0..<20], times[1..<20]) {
            #expect(later.timeIntervalSince(earlier) >= 60, "items less than a minute apart")
        }
        // Not all in one minute, and not all on the minute: a digest shows distinct, plausible times.
        let calendar = Calendar(identifier: .gregorian)
        let minutes = Set(times[0..<20].map { calendar.dateComponents(in: .gmt, from: $0).minute ?? 0 })
        #expect(minutes.count >= 15)
        // Live items: at the second they appear, `rate` per second.
        #expect(times[20] == epoch)
        #expect(times[21] == epoch.addingTimeInterval(1))
        #expect(times[29] == epoch.addingTimeInterval(5))
        // An in-process simulator's epoch is a 7-minute tick: the same for runs inside it, close to the run.
        let run = Date(timeIntervalSince1970: 1_767_225_600 + 3 * 3600 + 1000)
        let tick = PushSimulator.epoch(containing: run)
        #expect(run.timeIntervalSince(tick) >= 0 && run.timeIntervalSince(tick) < 420)
        #expect(PushSimulator.epoch(containing: run.addingTimeInterval(10)) == tick)
        // A pure function: asked again, the same times.
        #expect(try (Int64(1)...30).map { try #require(simulator.item(seq: $0).datePublished) } == times)
    }

    @Test func someItemsAreJapaneseAndSomeNeedEscaping() {
        let simulator = PushSimulator(seed: 7, epoch: epoch)
        let titles = (Int64(1)...200).compactMap { simulator.item(seq: $0).title }
        #expect(titles.contains { $0.unicodeScalars.contains { (0x3040...0x9FFF).contains($0.value) } })
        for special in ["<", "&", "\"", "*", "_", "`"] {
            #expect(titles.contains { $0.contains(special) }, "no title with \(special)")
        }
    }

    @Test func contentHTMLEscapesTheHeadline() {
        let simulator = PushSimulator(seed: 7, epoch: epoch)
        let items = (Int64(1)...200).map { simulator.item(seq: $0) }
        let withAmpersand = items.first { $0.title?.contains("&") == true }
        #expect(withAmpersand?.contentHTML?.contains("&amp;") == true)
        let withLessThan = items.first { $0.title?.contains("<") == true }
        #expect(withLessThan?.contentHTML?.contains("&lt;") == true)
    }
}

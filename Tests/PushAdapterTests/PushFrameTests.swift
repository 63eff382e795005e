import Foundation
import Testing
import TributaryCore

@testable import PushAdapter

@Suite struct PushFrameTests {
    @Test func decodesTheThreeFrameTypes() throws {
        let item = try PushFrame.decode(#"{"type":"item","seq":42,"item":{"id":"a","title":"T"}}"#, maxSize: 1000).get()
        #expect(item == .item(seq: 42, item: FeedItem(id: "a", title: "T")))
        #expect(try PushFrame.decode(#"{"type":"ready","seq":42}"#, maxSize: 100).get() == .ready(seq: 42))
        #expect(try PushFrame.decode(#"{"seq":7,"type":"heartbeat"}"#, maxSize: 100).get() == .heartbeat(seq: 7))
    }

    @Test func encodedFramesDecodeToThemselves() throws {
        let item = PushSimulator(seed: 3, epoch: Date(timeIntervalSince1970: 1_700_000_000)).item(seq: 9)
        for frame in [PushFrame.item(seq: 9, item: item), .ready(seq: 9), .heartbeat(seq: 10)] {
            #expect(try PushFrame.decode(frame.encoded(), maxSize: 1 << 20).get() == frame)
        }
        #expect(PushFrame.ready(seq: 5).encoded() == #"{"seq":5,"type":"ready"}"#)
    }

    @Test(arguments: [
        (#"not json"#, PushFrameError.Reason.notJSON),
        (#"{"type":"item","seq":1,"item":"#, .notJSON),
        (#"[1,2]"#, .notAnObject),
        (#"{"seq":1}"#, .missingType),
        (#"{"type":"ready"}"#, .missingSeq(type: "ready")),
        (#"{"type":"ready","seq":-3}"#, .missingSeq(type: "ready")),
        (#"{"type":"ready","seq":1.5}"#, .missingSeq(type: "ready")),
        (#"{"type":"gossip","seq":1}"#, .unknownType("gossip")),
        (#"{"type":"item","seq":4}"#, .missingItem(seq: 4)),
        (#"{"type":"item","seq":4,"item":{"title":"x"}}"#, .itemWithoutID(seq: 4)),
        (#"{"type":"item","seq":4,"item":{"id":"  "}}"#, .itemWithoutID(seq: 4)),
    ])
    func reportsMalformedFramesWithAReason(text: String, reason: PushFrameError.Reason) {
        #expect(throws: PushFrameError(reason: reason)) { try PushFrame.decode(text, maxSize: 1000).get() }
    }

    @Test func reportsAnItemThatIsNotAFeedItem() {
        let result = PushFrame.decode(#"{"type":"item","seq":4,"item":[1,2]}"#, maxSize: 1000)
        guard case .failure(let error) = result, case .invalidItem(4, _) = error.reason else {
            Issue.record("expected invalidItem, got \(result)")
            return
        }
    }

    /// A bad member costs the member, not the item (the JSON Feed reader's rule), and is reported.
    @Test func aBadMemberOfAnItemIsLeftOutAndReported() throws {
        let text = #"{"type":"item","seq":4,"item":{"id":"a","title":"T","tags":"x","date_published":"soon"}}"#
        let (frame, problems) = try PushFrame.decodeReporting(text, maxSize: 1000).get()
        guard case .item(4, let item) = frame else {
            Issue.record("expected an item, got \(frame)")
            return
        }
        #expect(item.id == "a")
        #expect(item.title == "T")
        #expect(item.tags.isEmpty)
        #expect(item.datePublished == nil)
        #expect(problems.count == 2)
        #expect(problems.contains { $0.hasPrefix("tags must be an array") })
    }

    @Test func refusesAnOversizedMessageBeforeParsingIt() {
        let text = #"{"type":"heartbeat","seq":1}"# + String(repeating: " ", count: 100)
        #expect(throws: PushFrameError.oversized(size: text.utf8.count, limit: 64)) {
            try PushFrame.decode(text, maxSize: 64).get()
        }
    }

    @Test func warningTextsNameTheProblem() {
        #expect(PushFrameError.unknownType("gossip").description.contains("gossip"))
        #expect(PushFrameError.itemWithoutID(seq: 4).description.contains("no \"id\""))
        #expect(PushFrameError.oversized(size: 99, limit: 64).description.contains("maxMessageSize"))
    }
}

import Foundation
import TributaryCore

/// A JSON Feed document decoded so that one broken item cannot sink the others, nor a bad member its item.
///
/// The top-level members other than `items` are kept as ``JSONValue``s (they are small) and later decoded as a
/// ``JSONFeed`` with an empty item list, so the feed-level rules (1.0's `author`, extensions) live in one place, the
/// core. Each item is decoded on its own straight from the document, which keeps large numeric ids exact.
struct LenientFeedDocument: Decodable {
    /// What the document's `items` member turned out to be.
    enum Items {
        /// There is no `items` member.
        case missing
        /// `items` is present but is not an array; the associated value names what it is instead.
        case notAnArray(String)
        /// `items` is an array: each element decoded, or why it could not be.
        case array([Outcome])
    }

    /// One element of `items`.
    enum Outcome {
        case decoded(JSONFeedItemReading)
        case failed(index: Int, label: ItemLabel, error: any Error)
    }

    /// Every top-level member except `items`.
    var header: [String: JSONValue]
    var items: Items

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: MemberKey.self)
        var header: [String: JSONValue] = [:]
        for key in container.allKeys where key.stringValue != "items" {
            header[key.stringValue] = try container.decode(JSONValue.self, forKey: key)
        }
        self.header = header
        let itemsKey = MemberKey("items")
        guard container.contains(itemsKey) else {
            items = .missing
            return
        }
        guard var elements = try? container.nestedUnkeyedContainer(forKey: itemsKey) else {
            items = .notAnArray(try container.decode(JSONValue.self, forKey: itemsKey).kindName)
            return
        }
        var outcomes: [Outcome] = []
        while !elements.isAtEnd {
            let index = elements.currentIndex
            do {
                outcomes.append(.decoded(try elements.decode(JSONFeedItemReading.self)))
            } catch {
                // A failed `decode` leaves the container on the same element; reading the element's label moves
                // past it. `ItemLabel` never throws, but stop rather than spin if a decoder ever behaves otherwise.
                let label = (try? elements.decode(ItemLabel.self)) ?? ItemLabel()
                outcomes.append(.failed(index: index, label: label, error: error))
                guard elements.currentIndex > index else { break }
            }
        }
        items = .array(outcomes)
    }
}

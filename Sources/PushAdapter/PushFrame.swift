import FeedParser
import Foundation
import TributaryCore

/// One frame of the push wire protocol (DESIGN.md section 5): a text WebSocket message holding one JSON object.
///
/// - `{"type":"item","seq":42,"item":{ JSON Feed item }}`
/// - `{"type":"ready","seq":42}`: the backlog replay is complete; live from here
/// - `{"type":"heartbeat","seq":42}`
///
/// Item `seq`s increase strictly. `ready` and `heartbeat` carry the server's current `seq` (the last item it has
/// published), so they may repeat an item's number; the client applies the "at or below the last accepted `seq`"
/// rule to items only.
enum PushFrame: Sendable, Equatable {
    /// One feed item.
    case item(seq: Int64, item: FeedItem)
    /// The backlog replay is complete.
    case ready(seq: Int64)
    /// The connection is alive.
    case heartbeat(seq: Int64)

    /// The frame's sequence number.
    var seq: Int64 {
        switch self {
        case .item(let seq, _), .ready(let seq), .heartbeat(let seq): seq
        }
    }

    /// Decodes one text message. Never traps: anything malformed comes back as a ``PushFrameError``.
    /// - Parameters:
    ///   - text: the message as received.
    ///   - maxSize: the largest message accepted, in UTF-8 bytes.
    static func decode(_ text: String, maxSize: Int) -> Result<PushFrame, PushFrameError> {
        decodeReporting(text, maxSize: maxSize).map(\.frame)
    }

    /// ``decode(_:maxSize:)``, with one line for each member of an item that had to be left out (a date in no known
    /// form, a tag that is not a string): the JSON Feed reader's rule, a bad member costs the member, not the item.
    static func decodeReporting(_ text: String, maxSize: Int) -> Result<
        (frame: PushFrame, problems: [String]), PushFrameError
    > {
        let size = text.utf8.count
        guard size <= maxSize else { return .failure(.oversized(size: size, limit: maxSize)) }
        let envelope: Envelope
        do {
            envelope = try JSONDecoder().decode(Envelope.self, from: Data(text.utf8))
        } catch DecodingError.typeMismatch {
            return .failure(.notAnObject)
        } catch {
            return .failure(.notJSON)
        }
        guard let type = envelope.type else { return .failure(.missingType) }
        guard let seq = envelope.seq else { return .failure(.missingSeq(type: type)) }
        switch type {
        case "item":
            switch envelope.item {
            case nil:
                return .failure(.missingItem(seq: seq))
            case .failure(let error):
                return .failure(.invalidItem(seq: seq, detail: Self.describe(error)))
            case .success(let reading):
                guard !reading.item.id.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
                    return .failure(.itemWithoutID(seq: seq))
                }
                return .success((.item(seq: seq, item: reading.item), reading.problems))
            }
        case "ready":
            return .success((.ready(seq: seq), []))
        case "heartbeat":
            return .success((.heartbeat(seq: seq), []))
        default:
            return .failure(.unknownType(type))
        }
    }

    /// The frame as wire text: one compact JSON object with sorted keys.
    func encoded() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        let data: Data
        switch self {
        case .item(let seq, let item):
            data = (try? encoder.encode(ItemFrame(seq: seq, item: item))) ?? Data()
        case .ready(let seq):
            data = (try? encoder.encode(ControlFrame(type: "ready", seq: seq))) ?? Data()
        case .heartbeat(let seq):
            data = (try? encoder.encode(ControlFrame(type: "heartbeat", seq: seq))) ?? Data()
        }
        return String(decoding: data, as: UTF8.self)
    }

    // MARK: - Private

    private static func describe(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return String(describing: error) }
        switch error {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .keyNotFound(_, let context),
            .dataCorrupted(let context):
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            return path.isEmpty ? context.debugDescription : "\(path): \(context.debugDescription)"
        @unknown default:
            return String(describing: error)
        }
    }

    /// The frame's fields, each decoded leniently so that a missing or mistyped field is reported by name.
    private struct Envelope: Decodable {
        var type: String?
        var seq: Int64?
        var item: Result<JSONFeedItemReading, any Error>?

        enum CodingKeys: String, CodingKey { case type, seq, item }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            type = try? container.decodeIfPresent(String.self, forKey: .type)
            seq = (try? container.decodeIfPresent(Int64.self, forKey: .seq)).flatMap { $0 }.flatMap {
                $0 >= 0 ? $0 : nil
            }
            if container.contains(.item), (try? container.decodeNil(forKey: .item)) == false {
                do {
                    item = .success(try container.decode(JSONFeedItemReading.self, forKey: .item))
                } catch {
                    item = .failure(error)
                }
            }
        }
    }

    private struct ItemFrame: Encodable {
        var type = "item"
        var seq: Int64
        var item: FeedItem
    }

    private struct ControlFrame: Encodable {
        var type: String
        var seq: Int64
    }
}

/// Why a push message is not a usable frame; the client turns each into a `warning` event.
struct PushFrameError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The malformation.
    enum Reason: Hashable, Sendable {
        case oversized(size: Int, limit: Int)
        case notJSON
        case notAnObject
        case missingType
        case missingSeq(type: String)
        case unknownType(String)
        case missingItem(seq: Int64)
        case invalidItem(seq: Int64, detail: String)
        case itemWithoutID(seq: Int64)
    }

    var reason: Reason

    static func oversized(size: Int, limit: Int) -> Self { Self(reason: .oversized(size: size, limit: limit)) }
    static let notJSON = Self(reason: .notJSON)
    static let notAnObject = Self(reason: .notAnObject)
    static let missingType = Self(reason: .missingType)
    static func missingSeq(type: String) -> Self { Self(reason: .missingSeq(type: type)) }
    static func unknownType(_ type: String) -> Self { Self(reason: .unknownType(type)) }
    static func missingItem(seq: Int64) -> Self { Self(reason: .missingItem(seq: seq)) }
    static func invalidItem(seq: Int64, detail: String) -> Self { Self(reason: .invalidItem(seq: seq, detail: detail)) }
    static func itemWithoutID(seq: Int64) -> Self { Self(reason: .itemWithoutID(seq: seq)) }

    var description: String {
        switch reason {
        case .oversized(let size, let limit):
            "skipped a \(size)-byte message, larger than maxMessageSize (\(limit) bytes)"
        case .notJSON:
            "skipped a frame that is not valid JSON"
        case .notAnObject:
            "skipped a frame that is not a JSON object"
        case .missingType:
            "skipped a frame without a string \"type\""
        case .missingSeq(let type):
            "skipped a '\(type)' frame without a non-negative integer \"seq\""
        case .unknownType(let type):
            "skipped a frame of unknown type '\(type)' (expected item, ready or heartbeat)"
        case .missingItem(let seq):
            "skipped item frame \(seq): no \"item\" object"
        case .invalidItem(let seq, let detail):
            "skipped item frame \(seq): the item is not a JSON Feed item (\(detail))"
        case .itemWithoutID(let seq):
            "skipped item frame \(seq): the item has no \"id\""
        }
    }
}

import Foundation
import TributaryCore

/// Reads a local feed file in 64 KiB chunks through a ``FeedStreamConsumer``.
struct FileFeedLoader {
    static let chunkSize = 64 * 1024

    let reader: FeedReader

    func load(
        _ url: URL,
        into sink: EventSink,
        shape: @escaping @Sendable (FeedItem) -> FeedItem?
    ) async throws -> FeedReadResult {
        let sourceID = reader.sourceID
        if let problem = LocalFile.notARegularFile(url.path) {
            throw SourceError(sourceID: sourceID, reason: .unreadable(path: url.path, detail: problem))
        }
        let handle: FileHandle
        do {
            handle = try FileHandle(forReadingFrom: url)
        } catch {
            if !FileManager.default.fileExists(atPath: url.path) {
                throw SourceError(sourceID: sourceID, reason: .fileNotFound(path: url.path), underlying: error)
            }
            throw SourceError(
                sourceID: sourceID,
                reason: .unreadable(path: url.path, detail: error.localizedDescription),
                underlying: error
            )
        }
        defer { try? handle.close() }
        let consumer = try FeedStreamConsumer(
            sourceID: sourceID,
            location: url.path,
            // A file's path is never a base: a relative link means nothing to a reader as `file:///blog/...`, so
            // without an xml:base it stays as written.
            baseURL: nil,
            httpCharset: nil,
            settings: reader.settings,
            sink: sink,
            shape: shape
        )
        while true {
            try Task.checkCancellation()
            let chunk: Data?
            do {
                chunk = try handle.read(upToCount: Self.chunkSize)
            } catch {
                throw SourceError(
                    sourceID: sourceID,
                    reason: .unreadable(path: url.path, detail: error.localizedDescription),
                    underlying: error
                )
            }
            guard let chunk, !chunk.isEmpty else { break }
            let items = try chunk.withUnsafeBytes { try consumer.consume($0) }
            await consumer.emit(items)
        }
        try Task.checkCancellation()
        try await consumer.finish()
        return FeedReadResult(
            metadata: consumer.metadata,
            validators: Validators(),
            itemCount: consumer.itemCount,
            byteCount: consumer.byteCount
        )
    }
}

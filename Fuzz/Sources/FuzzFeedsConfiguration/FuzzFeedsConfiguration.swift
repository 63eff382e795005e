import Foundation
import JSONFileAdapter
import TributaryCore

/// The registry the loader checks `kind`s against: one real adapter is enough to reach its options' decoding.
private let registry = SourceRegistry([JSONFileSource.self])

/// Loads the input as feeds.json with ``ConfigurationLoader`` (the strict ``LocatedJSON`` parser first); thrown
/// ``ConfigurationErrors`` are a correct outcome, a crash, a trap or a hang is a finding.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFeedsConfiguration(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let data = start.map { Data(bytes: $0, count: count) } ?? Data()
    do {
        _ = try ConfigurationLoader.load(
            data: data,
            file: URL(fileURLWithPath: "/nonexistent/tributary-fuzz/feeds.json"),
            registry: registry
        )
    } catch {
        _ = String(describing: error)
    }
    // The parser alone, with the tolerant settings feeds from elsewhere are read with.
    _ = try? LocatedJSON.parse(data, allowsDuplicateKeys: true)
    return 0
}

public import Foundation
public import Logging

/// Makes the pipeline's sources from feeds.json, as every command that fetches does.
public enum ConfiguredSources {
    /// Makes every enabled source of `configuration` (no I/O, by rule SRC-1), each with a logger that names it and
    /// all sharing one ``HostLimiter`` set from feeds.json.
    /// - Parameters:
    ///   - savedStates: each source's checkpoint from the store, handed to it as ``SourceContext/savedState``.
    ///   - pipelineSource: how a made source becomes a ``PipelineSource``; `watch` wraps pull sources here.
    /// - Throws: ``ConfigurationErrors`` with every source that cannot be constructed.
    public static func make(
        _ configuration: FeedsConfiguration,
        registry: SourceRegistry,
        logger: Logger,
        mode: SourceContext.Mode,
        now: @escaping @Sendable () -> Date = { Date() },
        savedStates: [SourceID: SourceCheckpoint] = [:],
        pipelineSource: (any Source, SourceConfiguration) -> PipelineSource = {
            PipelineSource(source: $0, configuration: $1)
        }
    ) throws(ConfigurationErrors) -> [PipelineSource] {
        var sources: [PipelineSource] = []
        var problems: [ConfigurationError] = []
        let hostLimiter = HostLimiter(
            maxConcurrentRequests: configuration.maxConnectionsPerHost,
            minimumInterval: configuration.minimumHostInterval
        )
        for entry in configuration.enabledSources {
            var sourceLogger = logger
            sourceLogger[metadataKey: "source"] = "\(entry.id)"
            let context = SourceContext(
                logger: sourceLogger,
                baseDirectory: configuration.directory,
                allowsPathsOutsideBaseDirectory: configuration.allowPathsOutside,
                mode: mode,
                now: now,
                savedState: savedStates[entry.id] ?? SourceCheckpoint(),
                hostLimiter: hostLimiter
            )
            do {
                sources.append(pipelineSource(try registry.makeSource(for: entry, context: context), entry))
            } catch let error as ConfigurationError {
                problems.append(error)
            } catch {
                problems.append(
                    ConfigurationError(
                        file: entry.file ?? configuration.file.path,
                        sourceID: entry.id,
                        reason: .adapterError("\(error)")
                    )
                )
            }
        }
        if !problems.isEmpty { throw ConfigurationErrors(problems) }
        return sources
    }
}
